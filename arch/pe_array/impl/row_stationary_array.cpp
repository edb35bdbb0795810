#include "arch/pe_array/impl/row_stationary_array.hpp"

#include <algorithm>

namespace ergon {

RowStationaryArray::RowStationaryArray(sc_core::sc_module_name name, const PeArrayConfig& config)
    : IPeArray(name), config_(config) {}

std::uint64_t RowStationaryArray::pass_cycles(const PassTraffic& t, const INoc& noc, const IGlobalBuffer& glb) const {
  const std::uint64_t fill = std::max(noc.fill_cycles(t.filter_bus_words, t.ifmap_bus_words),
                                      glb.access_cycles(t.filter_bus_words + t.ifmap_bus_words, t.deposited_words()));
  const std::uint64_t compute =
      std::max({t.compute_cycles + t.accumulation_latency_cycles, noc.psum_cycles(t.psum_bus_words),
                glb.access_cycles(t.psum_glb_reads + t.ofmap_dram_words, t.psum_glb_writes)});
  return fill + compute;
}

}  // namespace ergon
