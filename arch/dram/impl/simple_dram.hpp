#pragma once
// `dram.impl: simple`: bandwidth, access latency and a bounded request queue. Requests are served in
// arrival order over one shared bus: a burst of B bytes occupies it for B / bandwidth and completes
// `latency_ns` after its last byte; a request that finds `request_queue_depth` requests outstanding
// waits for the oldest to complete.
#include <tlm_utils/simple_target_socket.h>

#include "arch/accelerator_config.hpp"
#include "arch/dram/dram.hpp"
#include "arch/dram/request_queue.hpp"

namespace ergon {

class SimpleDram : public IDram {
 public:
  SimpleDram(sc_core::sc_module_name name, const DramConfig& config);
  tlm::tlm_target_socket<>& target_socket() override { return socket_; }
  const DramCounters& counters() const override { return counters_; }
  void change_bandwidth(double bandwidth_gbps, const sc_core::sc_time& switch_time) override;

 private:
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);
  const sc_core::sc_time& transfer_time(std::uint64_t bytes);

  tlm_utils::simple_target_socket<SimpleDram> socket_;
  double picoseconds_per_byte_;
  sc_core::sc_time latency_;
  RequestQueue queue_;
  sc_core::sc_time bus_free_at_ = sc_core::SC_ZERO_TIME;
  DramCounters counters_;
  // Almost every burst has the loader's full size: its bus time is computed once per bandwidth (building
  // an sc_time from a double cost a third of the model's time).
  std::uint64_t cached_bytes_ = 0;
  sc_core::sc_time cached_transfer_;
  std::uint64_t cached_transfer_ps_ = 0;
};

}  // namespace ergon
