#pragma once
// What one row-stationary step moves between the GLB and the array and computes. Which of its tiles must
// first come from DRAM is the GLB's business (it knows what it holds): the loader adds those fetches with
// add_glb_fetch. Non-zero MACs are set apart (expected at transaction level, counted at cycle fidelity).
#include <cstdint>

#include "dataflows/row_stationary/row_stationary_schedule.hpp"
#include "dataflows/step_traffic.hpp"

namespace ergon {

// `filters_in_rf`: the PEs still hold this step's filters (the previous step used the same ones).
StepTraffic step_traffic(const LoopNest& nest, const RowStationaryTiling& tiling, const RowStationaryStep& step,
                         bool filters_in_rf);

// How the step's ifmap tile streams into the PEs, column by column (StepTraffic::ifmap_stream).
IfmapStream ifmap_stream(const LoopNest& nest, const RowStationaryTiling& tiling, const RowStationaryStep& step);

// Sets the non-zero MACs and the RF accesses that depend on them (filter read, psum read and write).
void set_nonzero_macs(StepTraffic& traffic, std::uint64_t nonzero_macs);

// What the GLB had to fetch from DRAM (or write to it) for a step.
struct GlbFetch {
  std::uint64_t filter_dram_words = 0;
  std::uint64_t ifmap_dram_words = 0;  // padded
  std::uint64_t ifmap_dram_stored_words = 0;
  std::uint64_t psum_spill_read_words = 0;
  std::uint64_t psum_spill_write_words = 0;
  std::uint64_t ofmap_dram_words = 0;
};

// Deposits from DRAM are GLB writes; spilled psums and finished ofmaps leaving for DRAM are GLB reads.
void add_glb_fetch(StepTraffic& traffic, const GlbFetch& fetch);

// Padded input rows and columns the step sends to the array: its ofmap rows' window over its filter-row
// fold, and the full ofmap width's window over its filter-column fold.
struct StepInput {
  IndexRange rows, cols;
};
StepInput step_input(const LoopNest& nest, const RowStationaryStep& step);

// (output, tap) pairs along one axis whose input position is stored data rather than padding.
std::uint64_t valid_taps(IndexRange outputs, IndexRange taps, std::int64_t stride, std::int64_t dilation,
                         std::int64_t pad, std::int64_t extent);

}  // namespace ergon
