#pragma once
// What one row-stationary pass moves between the GLB and the array and computes. Which of its tiles must
// first come from DRAM is the GLB's business (it knows what it holds): the loader adds those fetches with
// add_glb_fetch. Non-zero MACs are set apart (expected at transaction level, counted at cycle fidelity).
#include <cstdint>

#include "dataflows/pass_traffic.hpp"
#include "dataflows/row_stationary/row_stationary_schedule.hpp"

namespace ergon {

// `filters_in_rf`: the PEs still hold this pass's filters (the previous pass used the same ones).
PassTraffic pass_traffic(const LoopNest& nest, const RowStationaryTiling& tiling, const RowStationaryPass& pass,
                         bool filters_in_rf);

// How the pass's ifmap tile streams into the PEs, column by column (PassTraffic::ifmap_stream).
IfmapStream ifmap_stream(const LoopNest& nest, const RowStationaryTiling& tiling, const RowStationaryPass& pass);

// Sets the non-zero MACs and the RF accesses that depend on them (filter read, psum read and write).
void set_nonzero_macs(PassTraffic& traffic, std::uint64_t nonzero_macs);

// What the GLB had to fetch from DRAM (or write to it) for a pass.
struct GlbFetch {
  std::uint64_t filter_dram_words = 0;
  std::uint64_t ifmap_dram_words = 0;  // padded
  std::uint64_t ifmap_dram_stored_words = 0;
  std::uint64_t psum_spill_read_words = 0;
  std::uint64_t psum_spill_write_words = 0;
  std::uint64_t ofmap_dram_words = 0;
};

// Deposits from DRAM are GLB writes; spilled psums and finished ofmaps leaving for DRAM are GLB reads.
void add_glb_fetch(PassTraffic& traffic, const GlbFetch& fetch);

// Padded input rows and columns the pass sends to the array: its ofmap rows' window over its filter-row
// fold, and the full ofmap width's window over its filter-column fold.
struct PassInput {
  IndexRange rows, cols;
};
PassInput pass_input(const LoopNest& nest, const RowStationaryPass& pass);

// (output, tap) pairs along one axis whose input position is stored data rather than padding.
std::uint64_t valid_taps(IndexRange outputs, IndexRange taps, std::int64_t stride, std::int64_t dilation,
                         std::int64_t pad, std::int64_t extent);

}  // namespace ergon
