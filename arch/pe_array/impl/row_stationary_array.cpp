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

// Each bus and port for the words its timing carries over it (pass_timing: filters and ifmaps, preloaded
// or streamed, over their buses and the GLB's read ports; psums both ways; finished outputs leaving and
// DRAM deposits through the GLB's ports); the array for its MACs and the psum ripple.
void RowStationaryArray::occupy(const PassTraffic& t, INoc& noc, IGlobalBuffer& glb) {
  add_busy_cycles(t.compute_cycles + t.accumulation_latency_cycles);
  NocBusy buses;
  buses.filter_bus_cycles = INoc::bus_cycles(t.filter_bus_words, noc.filter_words_per_cycle());
  buses.ifmap_bus_cycles = INoc::bus_cycles(t.ifmap_bus_words, noc.ifmap_words_per_cycle());
  buses.psum_read_bus_cycles = INoc::bus_cycles(t.psum_glb_reads, noc.psum_read_words_per_cycle());
  buses.psum_write_bus_cycles = INoc::bus_cycles(t.psum_glb_writes, noc.psum_write_words_per_cycle());
  noc.occupy(buses);
  glb.occupy_ports(glb.read_port_cycles(t.filter_bus_words + t.ifmap_bus_words + t.psum_glb_reads + t.ofmap_dram_words),
                   glb.write_port_cycles(t.psum_glb_writes + t.deposited_words()));
}

}  // namespace ergon
