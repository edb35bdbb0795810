#include "arch/pe_array/impl/row_stationary_array.hpp"

namespace ergon {

RowStationaryArray::RowStationaryArray(sc_core::sc_module_name name, const PeArrayConfig& config)
    : IPeArray(name), config_(config) {}

std::uint64_t RowStationaryArray::pass_cycles(const PassTraffic& traffic) const {
  return traffic.compute_cycles + traffic.accumulation_latency_cycles;
}

void RowStationaryArray::record(std::uint64_t macs, std::uint64_t nonzero_macs, std::uint64_t rf_accesses) {
  counters_.macs += macs;
  counters_.nonzero_macs += nonzero_macs;
  counters_.rf_accesses += rf_accesses;
  counters_.pe_busy_cycles += macs;
}

}  // namespace ergon
