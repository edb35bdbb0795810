#include "dataflows/row_stationary/step_timing.hpp"

#include <algorithm>
#include <cmath>

namespace ergon {
namespace {

double per_cycle(double words, std::int64_t width) {
  return words / static_cast<double>(width);
}

// Cycles from the start of one output column to the start of the next, which needs `needed` more ifmap
// columns: while the PEs compute, the bus brings what the RF has room for; the rest follows afterwards.
double step_period(double compute_cycles, double column_cycles, double needed, double lookahead) {
  const double ahead = std::min(needed, lookahead);
  return std::max(compute_cycles, ahead * column_cycles) + (needed - ahead) * column_cycles;
}

}  // namespace

StepLoad step_load(const StepTraffic& t) {
  StepLoad load;
  load.filter_words = static_cast<double>(t.filter_bus_words);
  load.ifmap_words = static_cast<double>(t.ifmap_bus_words);
  load.compute_cycles = static_cast<double>(t.compute_cycles);
  load.ripple_cycles = static_cast<double>(t.accumulation_latency_cycles);
  load.psum_reads = static_cast<double>(t.psum_glb_reads);
  load.psum_writes = static_cast<double>(t.psum_glb_writes);
  load.ofmap_reads = static_cast<double>(t.ofmap_dram_words);
  load.deposits = static_cast<double>(t.deposited_words());
  load.stream = t.ifmap_stream;
  return load;
}

std::uint64_t ifmap_lookahead_columns(const IfmapStream& stream, std::int64_t ifmap_rf_words) {
  const std::uint64_t held =
      static_cast<std::uint64_t>(ifmap_rf_words) / std::max<std::uint64_t>(1, stream.channels_per_pe);
  // A dilated window spans more columns than it has taps: the RF is taken to hold the span.
  return held > stream.window_columns ? held - stream.window_columns : 0;
}

StepTiming step_timing(const StepLoad& load, const ArrayTiming& timing) {
  const IfmapStream& stream = load.stream;
  const double preloaded_filters = timing.filter_rf_double_buffered ? 0.0 : load.filter_words;
  const double streamed_filters = load.filter_words - preloaded_filters;
  double lead_ifmaps = load.ifmap_words;  // without a stream, the whole tile
  double mac_cycles = load.compute_cycles + load.ripple_cycles;
  if (!stream.empty() && stream.steps_per_image > 0) {
    const double column_words = static_cast<double>(stream.words_per_column);
    lead_ifmaps = std::min(load.ifmap_words, column_words * static_cast<double>(stream.window_columns));
    const double column_cycles = per_cycle(column_words, timing.ifmap_bus_words);
    const double lookahead = static_cast<double>(ifmap_lookahead_columns(stream, timing.ifmap_rf_words));
    const double images = static_cast<double>(stream.images);
    const double steps = images * static_cast<double>(stream.steps_per_image);
    const double step_compute = load.compute_cycles / steps;
    // The first step starts after the preload; each later one needs a stride's columns, or a whole
    // window when a new image begins.
    mac_cycles =
        (steps - images) *
            step_period(step_compute, column_cycles, static_cast<double>(stream.columns_per_step), lookahead) +
        (images - 1) * step_period(step_compute, column_cycles, static_cast<double>(stream.window_columns), lookahead) +
        step_compute + load.ripple_cycles;
  }
  StepTiming result;
  result.preload_cycles =
      std::max({per_cycle(preloaded_filters, timing.filter_bus_words), per_cycle(lead_ifmaps, timing.ifmap_bus_words),
                per_cycle(preloaded_filters + lead_ifmaps, timing.glb_read_words)});
  const double streamed_ifmaps = load.ifmap_words - lead_ifmaps;
  result.stream_cycles = std::max(
      {mac_cycles, per_cycle(streamed_ifmaps, timing.ifmap_bus_words),
       per_cycle(streamed_filters, timing.filter_bus_words), per_cycle(load.psum_reads, timing.psum_read_bus_words),
       per_cycle(load.psum_writes, timing.psum_write_bus_words),
       per_cycle(streamed_ifmaps + streamed_filters + load.psum_reads + load.ofmap_reads, timing.glb_read_words),
       per_cycle(load.psum_writes + load.deposits, timing.glb_write_words)});
  return result;
}

ArrayTiming array_timing(const AcceleratorConfig& config) {
  const PeArrayConfig& array = config.pe_array;
  const GlbConfig& glb = config.glb;
  ArrayTiming timing;
  timing.filter_bus_words = config.noc.filter_bus_words;
  timing.ifmap_bus_words = config.noc.ifmap_bus_words;
  timing.psum_read_bus_words = config.noc.psum_read_bus_words;
  timing.psum_write_bus_words = config.noc.psum_write_bus_words;
  timing.glb_read_words = glb.port_words_per_cycle(glb.read_ports_per_bank, array.word_bits);
  timing.glb_write_words = glb.port_words_per_cycle(glb.write_ports_per_bank, array.word_bits);
  timing.ifmap_rf_words = array.rf.ifmap_entries;
  timing.filter_rf_double_buffered = array.rf.filter_double_buffered;
  timing.dram_bytes_per_cycle = config.dram.bandwidth_gbps * 1e3 / config.clock.frequency_mhz;
  timing.dram_latency_cycles = config.dram.latency_ns * config.clock.frequency_mhz / 1e3;
  return timing;
}

std::uint64_t step_cycles(const StepTraffic& traffic, const ArrayTiming& timing) {
  const StepTiming step = step_timing(step_load(traffic), timing);
  return static_cast<std::uint64_t>(std::ceil(step.preload_cycles) + std::ceil(step.stream_cycles));
}

}  // namespace ergon
