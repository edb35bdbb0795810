#include "arch/dram/impl/streams_dram.hpp"

#include <algorithm>
#include <cmath>

#include "arch/components.hpp"
#include "arch/dram/dram_time_check.hpp"
#include "arch/dram/request_queue.hpp"

namespace ergon {

StreamsDram::StreamsDram(sc_core::sc_module_name name, const DramConfig& config)
    : IDram(name),
      socket_("socket"),
      picoseconds_per_byte_(1e3 / config.bandwidth_gbps),  // 1 GB/s = 1 byte per ns
      latency_(config.latency_ns, sc_core::SC_NS) {
  socket_.register_b_transport(this, &StreamsDram::b_transport);
}

// Every port changes level together: the memory interface has one clock.
void StreamsDram::change_bandwidth(double bandwidth_gbps, const sc_core::sc_time& switch_time) {
  picoseconds_per_byte_ = 1e3 / bandwidth_gbps;
  for (Port& port : ports_) port.free_at = std::max(port.free_at, sc_core::sc_time_stamp()) + switch_time;
}

// Writes go to the ofmap port; reads to the filter port or, without a stream (or for psums), the ifmap port.
StreamsDram::PortIndex StreamsDram::port_of(const tlm::tlm_generic_payload& payload) {
  if (payload.is_write()) return kOfmapPort;
  const DramStreamExtension* extension = stream_extension(payload);
  return extension != nullptr && extension->stream == DramStream::kFilters ? kFilterPort : kIfmapPort;
}

void StreamsDram::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  if (serve_before_layer(payload, counters_)) return;
  count_request(payload, counters_);
  payload.set_response_status(tlm::TLM_OK_RESPONSE);
  Port& port = ports_[port_of(payload)];
  check_dram_time(std::max(sc_core::sc_time_stamp() + delay, port.free_at), payload.get_data_length(),
                  picoseconds_per_byte_, latency_);
  const sc_core::sc_time transfer(std::ceil(static_cast<double>(payload.get_data_length()) * picoseconds_per_byte_),
                                  sc_core::SC_PS);
  const sc_core::sc_time start = std::max(sc_core::sc_time_stamp() + delay, port.free_at);
  port.free_at = start + transfer;
  port.busy_ps += static_cast<std::uint64_t>(transfer.to_seconds() * 1e12 + 0.5);
  counters_.busy_ps = std::max(counters_.busy_ps, port.busy_ps);
  delay = port.free_at + latency_ - sc_core::sc_time_stamp();
}

ERGON_REGISTER(DramImpl, "streams",
               DramImpl{[](const DramConfig& config) -> std::unique_ptr<IDram> {
                          return std::make_unique<StreamsDram>("dram", config);
                        },
                        {},
                        false})  // no statistics beyond bytes; priced per bit

}  // namespace ergon
