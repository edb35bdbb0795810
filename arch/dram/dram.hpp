#pragma once
// Off-chip DRAM as a TLM-2.0 target: bandwidth, access latency and a bounded request queue. A burst is
// one blocking transport whose annotated delay says when its data has arrived (reads) or been
// absorbed (writes). Requests are served in arrival order; bandwidth is shared by all of them.
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <deque>
#include <systemc>
#include <tlm>

#include "arch/accelerator_config.hpp"

namespace ergon {

struct DramCounters {
  std::uint64_t read_bytes = 0;
  std::uint64_t write_bytes = 0;
  std::uint64_t read_requests = 0;
  std::uint64_t write_requests = 0;
  std::uint64_t queue_full_waits = 0;  // requests that found the queue full
};

class Dram : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Dram> socket;

  Dram(sc_core::sc_module_name name, const DramConfig& config);
  const DramCounters& counters() const { return counters_; }
  // When every request accepted so far has completed.
  sc_core::sc_time idle_from() const { return last_completion_; }

 private:
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);

  double picoseconds_per_byte_;
  sc_core::sc_time latency_;
  std::size_t queue_depth_;
  sc_core::sc_time bus_free_at_ = sc_core::SC_ZERO_TIME;
  sc_core::sc_time last_completion_ = sc_core::SC_ZERO_TIME;
  std::deque<sc_core::sc_time> completions_;  // of the requests in the queue, ascending
  DramCounters counters_;
};

}  // namespace ergon
