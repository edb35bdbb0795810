#pragma once
// What one row-stationary pass moves and computes, in words and operations. The SystemC modules use
// these counts to time their work; both fidelities must produce the same counts (the cycle-accurate
// array counts them as it moves values).
#include <cstdint>
#include <optional>

#include "dataflow/row_stationary/row_stationary_mapper.hpp"

namespace ergon {

struct PassTraffic {
  std::uint64_t macs = 0;          // all MACs of the pass, gated ones included
  std::uint64_t nonzero_macs = 0;  // MACs whose ifmap operand is non-zero (the others are gated)
  // Words fetched from DRAM into the on-chip buffers (0 when the tile is still resident).
  std::uint64_t filter_dram_words = 0;
  std::uint64_t ifmap_dram_words = 0;         // the tile, padding positions included
  std::uint64_t ifmap_dram_stored_words = 0;  // of which stored in DRAM (not padding)
  std::uint64_t ofmap_dram_words = 0;         // written back when the psums are complete
  // Global buffer (filter store included) accesses, in total and those of psums during the compute.
  std::uint64_t glb_writes = 0;
  std::uint64_t glb_reads = 0;
  std::uint64_t psum_glb_reads = 0;   // partial sums read back to accumulate
  std::uint64_t psum_glb_writes = 0;  // psums (or results) written by the array
  // Words crossing the NoC: filter and ifmap multicast from the GLB, psums to and from the GLB, and psum
  // hops between vertically neighbouring PEs.
  std::uint64_t filter_bus_words = 0;
  std::uint64_t ifmap_bus_words = 0;
  std::uint64_t psum_bus_words = 0;
  std::uint64_t inter_pe_psum_words = 0;
  std::uint64_t rf_accesses = 0;
  std::uint64_t active_pes = 0;
  std::uint64_t compute_cycles = 0;               // the busiest PE's MAC cycles, one MAC per cycle
  std::uint64_t accumulation_latency_cycles = 0;  // psums rippling up the tallest PE column
};

// Identifies the data a pass needs, so a tile still on chip is not fetched again.
struct PassTiles {
  IndexRange groups{-1, -1};
  IndexRange images, filters, channels, filter_rows, filter_cols, input_rows, input_cols;
};

PassTiles pass_tiles(const LoopNest& nest, const RowStationaryPass& pass);

// `previous` is the tile set of the pass before (none for a layer's first pass); `nonzero_fraction`
// is the share of non-zero ifmap values (expected value at transaction level).
PassTraffic pass_traffic(const LoopNest& nest, const RowStationaryTiling& tiling, const RowStationaryPass& pass,
                         const std::optional<PassTiles>& previous, double nonzero_fraction);

}  // namespace ergon
