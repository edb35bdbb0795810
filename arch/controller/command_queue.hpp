#pragma once
// The sequencer that issues every step's tile commands (`commands.*`): a load when the step reads DRAM
// (fetches, and psum spills), a compute, and a store when it writes DRAM, in program order (the order the
// loader and the compute thread reach them). It runs ahead of the engines: it takes `issue_cycles` of the
// compute clock per command, one command at a time, and waits while the command's queue is full. A load or
// compute leaves its queue when it starts, a store when its write has landed. A command starts once issued
// and once its dependencies are met: a compute waits for its load's data and a free buffer, a store for its
// compute (the loader and the controller wait for those). With the defaults (free issue, unbounded queues)
// every command is issued before it is needed and nothing changes.
#include <array>
#include <cstdint>
#include <deque>
#include <systemc>

#include "arch/accelerator_config.hpp"
#include "arch/clock.hpp"

namespace ergon {

class CommandQueue {
 public:
  enum class Engine { kLoad, kCompute, kStore };

  CommandQueue(const CommandsConfig& config, const ClockDomain& clock);

  // Issues the next command for `engine`: when the sequencer has issued it (perhaps long before now).
  sc_core::sc_time issue(Engine engine);
  // Issues it and waits, in the calling SystemC thread, until it is issued.
  void wait_until_issued(Engine engine);
  // The command last issued for `engine` left its queue at `at`.
  void left(Engine engine, const sc_core::sc_time& at);
  // Compute-clock cycles the sequencer spent issuing (a busy resource when issue costs anything).
  const std::uint64_t& issue_cycles() const { return issue_cycles_; }

 private:
  std::size_t depth(Engine engine) const;

  CommandsConfig config_;
  const ClockDomain& clock_;
  sc_core::sc_time issued_until_ = sc_core::SC_ZERO_TIME;  // when the sequencer finished its last command
  std::array<std::deque<sc_core::sc_time>, 3> leaves_;     // each bounded queue's last `depth` leaving times
  std::uint64_t issue_cycles_ = 0;
  bool free_;  // free issue and unbounded queues: the sequencer never holds anything up
};

}  // namespace ergon
