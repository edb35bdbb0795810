#pragma once
// DVFS switching: moves the compute clock and the DRAM to each layer's levels. The compute domain stops
// its clock while its level changes; the memory domain's bandwidth change is the DRAM's to time.
#include <systemc>

#include "arch/clock.hpp"
#include "arch/controller/run_events.hpp"
#include "arch/dram/dram.hpp"
#include "arch/operating_levels.hpp"

namespace ergon {

// The levels the domains start at (the modules are built at them), and how long each domain stalls
// while its level changes.
struct DvfsSetup {
  OperatingLevels initial;
  sc_core::sc_time compute_switch = sc_core::SC_ZERO_TIME;
  sc_core::sc_time memory_switch = sc_core::SC_ZERO_TIME;
};

class DvfsSwitch {
 public:
  DvfsSwitch(ClockDomain& clock, IDram& dram, const DvfsSetup& setup, RunEvents& events);
  // From a SystemC thread: waits while the compute clock is stopped; returns the picoseconds it stood.
  std::uint64_t switch_compute(const OperatingLevels& wanted, std::size_t layer_index);
  // A no-op when the bandwidth is already in force.
  void switch_memory(const OperatingLevels& wanted, std::size_t layer_index);
  double dram_bandwidth_gbps() const { return dram_bandwidth_gbps_; }

 private:
  ClockDomain& clock_;
  IDram& dram_;
  DvfsSetup setup_;
  RunEvents& events_;
  double dram_bandwidth_gbps_;
};

}  // namespace ergon
