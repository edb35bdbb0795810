#pragma once
// `dram.impl: streams`: SCALE-Sim v2's memory interface (docs/scalesim-reference.md). Filters, ifmaps (with
// psums read back) and ofmap writes each have their own port at the full `bandwidth_gbps`, so the three
// streams never wait for each other; a burst of B bytes occupies its port for B / bandwidth and completes
// `latency_ns` after its last byte (SCALE-Sim: one cycle). There is no request queue: SCALE-Sim's buffers
// issue their prefetches back to back. Bursts of a free first fill (DramStreamExtension::before_layer)
// are counted and take no time.
#include <tlm_utils/simple_target_socket.h>

#include <array>

#include "arch/accelerator_config.hpp"
#include "arch/dram/dram.hpp"

namespace ergon {

class StreamsDram : public IDram {
 public:
  StreamsDram(sc_core::sc_module_name name, const DramConfig& config);
  tlm::tlm_target_socket<>& target_socket() override { return socket_; }
  // busy_ps is the busiest port's transfer time.
  const DramCounters& counters() const override { return counters_; }
  void change_bandwidth(double bandwidth_gbps, const sc_core::sc_time& switch_time) override;

 private:
  struct Port {
    sc_core::sc_time free_at = sc_core::SC_ZERO_TIME;
    std::uint64_t busy_ps = 0;
  };
  enum PortIndex { kFilterPort, kIfmapPort, kOfmapPort, kPortCount };
  static PortIndex port_of(const tlm::tlm_generic_payload& payload);
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);

  tlm_utils::simple_target_socket<StreamsDram> socket_;
  double picoseconds_per_byte_;
  sc_core::sc_time latency_;
  std::array<Port, kPortCount> ports_;
  DramCounters counters_;
};

}  // namespace ergon
