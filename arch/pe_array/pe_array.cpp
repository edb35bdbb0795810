#include "arch/pe_array/pe_array.hpp"

namespace ergon {

PeArray::PeArray(sc_core::sc_module_name name, const PeArrayConfig& config)
    : sc_core::sc_module(name), config_(config) {}

std::uint64_t PeArray::pass_cycles(const PassTraffic& traffic) const {
  return traffic.compute_cycles + traffic.accumulation_latency_cycles;
}

void PeArray::record(const PassTraffic& traffic) {
  counters_.macs += traffic.macs;
  counters_.nonzero_macs += traffic.nonzero_macs;
  counters_.rf_accesses += traffic.rf_accesses;
  counters_.pe_busy_cycles += traffic.active_pes * traffic.compute_cycles;
}

}  // namespace ergon
