#include "arch/dram/impl/simple_dram.hpp"

#include <algorithm>
#include <cmath>

#include "arch/components.hpp"
#include "arch/dram/dram_time_check.hpp"

namespace ergon {

SimpleDram::SimpleDram(sc_core::sc_module_name name, const DramConfig& config)
    : IDram(name),
      socket_("socket"),
      picoseconds_per_byte_(1e3 / config.bandwidth_gbps),  // 1 GB/s = 1 byte per ns
      latency_(config.latency_ns, sc_core::SC_NS),
      queue_(static_cast<std::size_t>(config.request_queue_depth)) {
  socket_.register_b_transport(this, &SimpleDram::b_transport);
}

void SimpleDram::change_bandwidth(double bandwidth_gbps, const sc_core::sc_time& switch_time) {
  picoseconds_per_byte_ = 1e3 / bandwidth_gbps;
  cached_bytes_ = 0;
  bus_free_at_ = std::max(bus_free_at_, sc_core::sc_time_stamp()) + switch_time;
}

const sc_core::sc_time& SimpleDram::transfer_time(std::uint64_t bytes) {
  if (bytes != cached_bytes_) {
    cached_bytes_ = bytes;
    cached_transfer_ = sc_core::sc_time(std::ceil(static_cast<double>(bytes) * picoseconds_per_byte_), sc_core::SC_PS);
    cached_transfer_ps_ = static_cast<std::uint64_t>(cached_transfer_.to_seconds() * 1e12 + 0.5);
  }
  return cached_transfer_;
}

void SimpleDram::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  if (serve_before_layer(payload, counters_)) return;
  const sc_core::sc_time arrival = queue_.admit(sc_core::sc_time_stamp() + delay, counters_);
  check_dram_time(std::max(arrival, bus_free_at_), payload.get_data_length(), picoseconds_per_byte_, latency_);
  const sc_core::sc_time& transfer = transfer_time(payload.get_data_length());
  const sc_core::sc_time start = std::max(arrival, bus_free_at_);
  bus_free_at_ = start + transfer;
  counters_.busy_ps += cached_transfer_ps_;
  const sc_core::sc_time completion = bus_free_at_ + latency_;
  queue_.add(completion);
  count_request(payload, counters_);
  delay = completion - sc_core::sc_time_stamp();
  payload.set_response_status(tlm::TLM_OK_RESPONSE);
}

ERGON_REGISTER(DramImpl, "simple",
               DramImpl{[](const DramConfig& config) -> std::unique_ptr<IDram> {
                          return std::make_unique<SimpleDram>("dram", config);
                        },
                        {},
                        false})  // no statistics beyond bytes; priced per bit

}  // namespace ergon
