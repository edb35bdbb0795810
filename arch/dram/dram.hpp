#pragma once
// Off-chip DRAM: a TLM-2.0 target. A burst is one blocking transport whose annotated delay says when
// its data has arrived (reads) or been absorbed (writes). Implementations: arch/dram/impl/.
#include <cstdint>
#include <systemc>
#include <tlm>

namespace ergon {

struct DramCounters {
  std::uint64_t read_bytes = 0;
  std::uint64_t write_bytes = 0;
  std::uint64_t read_requests = 0;
  std::uint64_t write_requests = 0;
  std::uint64_t queue_full_waits = 0;  // requests that found the queue full
  std::uint64_t busy_ps = 0;           // time the data bus spent transferring
};

class IDram : public sc_core::sc_module {
 public:
  using sc_core::sc_module::sc_module;
  virtual tlm::tlm_target_socket<>& target_socket() = 0;
  virtual const DramCounters& counters() const = 0;
  // When every request accepted so far has completed.
  virtual sc_core::sc_time idle_from() const = 0;
  // The memory domain changes level (DVFS): the bus stops for `switch_time` once it is free, then serves
  // at `bandwidth_gbps`.
  virtual void change_bandwidth(double bandwidth_gbps, const sc_core::sc_time& switch_time) = 0;
};

}  // namespace ergon
