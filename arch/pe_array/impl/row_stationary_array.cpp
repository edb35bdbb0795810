#include "arch/pe_array/impl/row_stationary_array.hpp"

#include <cmath>

namespace ergon {

ArrayTiming array_timing(const PeArrayConfig& config, const INoc& noc, const IGlobalBuffer& glb) {
  ArrayTiming timing;
  timing.filter_bus_words = static_cast<std::int64_t>(noc.filter_words_per_cycle());
  timing.ifmap_bus_words = static_cast<std::int64_t>(noc.ifmap_words_per_cycle());
  timing.psum_read_bus_words = static_cast<std::int64_t>(noc.psum_read_words_per_cycle());
  timing.psum_write_bus_words = static_cast<std::int64_t>(noc.psum_write_words_per_cycle());
  timing.glb_read_words = static_cast<std::int64_t>(glb.read_words_per_cycle());
  timing.glb_write_words = static_cast<std::int64_t>(glb.write_words_per_cycle());
  timing.ifmap_rf_words = config.rf.ifmap_entries;
  timing.filter_rf_double_buffered = config.rf.filter_double_buffered;
  return timing;
}

RowStationaryArray::RowStationaryArray(sc_core::sc_module_name name, const PeArrayConfig& config)
    : IPeArray(name), config_(config) {}

std::uint64_t RowStationaryArray::pass_cycles(const PassTraffic& t, const INoc& noc, const IGlobalBuffer& glb) const {
  const PassTiming timing = pass_timing(pass_load(t), array_timing(config_, noc, glb));
  return static_cast<std::uint64_t>(std::ceil(timing.preload_cycles) + std::ceil(timing.stream_cycles));
}

}  // namespace ergon
