#pragma once
// How long a row-stationary step takes: the one timing of a step, used by the mapper's cost model and
// replay and by the transaction-level array (arch/pe_array/impl/row_stationary_array.cpp).
//
// A step first preloads: the filters (unless the filter RF is double-buffered and took them while the
// previous step computed) and the first window of ifmap columns. Then ifmap columns stream in while the PEs
// compute, as far ahead of the computation as the ifmap RF holds; psums flow to and from the GLB on their
// own buses. The cycle-accurate array moves the same words under the same rules one cycle at a time
// (tests/sim/differential_test.cpp states how far the two may differ).
#include <cstdint>

#include "arch/accelerator_config.hpp"
#include "dataflows/step_traffic.hpp"

namespace ergon {

// The hardware around the array, per cycle of the array's clock. Filled from the config by array_timing (the
// bus widths from noc.*, the ports from glb.*): no defaults of its own, the config's declarations hold them.
struct ArrayTiming {
  std::int64_t filter_bus_words = 0;
  std::int64_t ifmap_bus_words = 0;
  std::int64_t psum_read_bus_words = 0;
  std::int64_t psum_write_bus_words = 0;
  std::int64_t glb_read_words = 0;
  std::int64_t glb_write_words = 0;
  std::int64_t ifmap_rf_words = 0;
  bool filter_rf_double_buffered = false;
  double dram_bytes_per_cycle = 0;
  double dram_latency_cycles = 0;
};

// What a step moves, in words (fractional: the mapper feeds averages over a layer's steps).
struct StepLoad {
  double filter_words = 0;  // over the filter bus
  double ifmap_words = 0;   // over the ifmap bus
  double compute_cycles = 0;
  double ripple_cycles = 0;
  double psum_reads = 0;   // GLB -> array
  double psum_writes = 0;  // array -> GLB
  double ofmap_reads = 0;  // finished outputs read from the GLB for DRAM
  double deposits = 0;     // DRAM -> GLB writes
  IfmapStream stream;
};
StepLoad step_load(const StepTraffic& traffic);

struct StepTiming {
  double preload_cycles = 0;
  double stream_cycles = 0;
  double total() const { return preload_cycles + stream_cycles; }
};
StepTiming step_timing(const StepLoad& load, const ArrayTiming& timing);

// The array's timing on this config (the DRAM's rate and latency at its nominal clock, for the mapper).
ArrayTiming array_timing(const AcceleratorConfig& config);
// Whole cycles of one step of this traffic: its preload and its stream, each rounded up.
std::uint64_t step_cycles(const StepTraffic& traffic, const ArrayTiming& timing);

// The ifmap columns each PE's RF holds beyond the window of the output column it computes.
std::uint64_t ifmap_lookahead_columns(const IfmapStream& stream, std::int64_t ifmap_rf_words);

}  // namespace ergon
