#include "arch/pe_array/pe_array.hpp"

namespace ergon {

PeArray::PeArray(sc_core::sc_module_name name, const PeArrayConfig& config)
    : sc_core::sc_module(name), config_(config) {}

std::uint64_t PeArray::pass_cycles(const PassTraffic& traffic) const {
  return traffic.compute_cycles + traffic.accumulation_latency_cycles;
}

void PeArray::record(std::uint64_t macs, std::uint64_t nonzero_macs, std::uint64_t rf_accesses) {
  counters_.macs += macs;
  counters_.nonzero_macs += nonzero_macs;
  counters_.rf_accesses += rf_accesses;
  counters_.pe_busy_cycles += macs;
}

}  // namespace ergon
