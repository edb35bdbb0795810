#pragma once
// The closed-form cost model of a row-stationary mapping: the counts a simulation of the mapping produces
// (exactly: tests/dataflows/row_stationary/row_stationary_cost_test.cpp holds it to the simulated counts), an estimate
// of its cycles, and its energy under per-access energies. The mapper ranks candidates with it; reported figures always
// come from the simulation.
//
// Reuse follows from the GLB's least-recently-used slots over the loop order: for each tensor, walking the
// loops from the innermost out, a loop over a dimension the tensor does not depend on re-uses the tiles
// fetched inside it when they all fit its slots (their number, the product of the inner loops over its own
// dimensions, is at most the slots), and otherwise fetches them again on every iteration.
#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

#include "dataflows/access_prices.hpp"
#include "dataflows/dram_encoding.hpp"
#include "dataflows/row_stationary/row_stationary_mapping.hpp"
#include "dataflows/row_stationary/step_timing.hpp"

namespace ergon {

// The reuse analysis over a loop order, shared by the cost model and the mapper's choice of slot counts.
enum class GlbTensor { kIfmap, kFilter, kPsum };
bool depends_on(GlbTensor tensor, TemporalDim dim);  // ifmaps: not filters; filters: filters and channels;
                                                     // psums: not channels
struct TemporalLoop {
  TemporalDim dim;
  std::int64_t bound;
};
// The loops that iterate more than once, outer to inner: orders that agree on them are one schedule. At most
// the four temporal loops, held in place (the mapper builds them for every candidate).
class TemporalLoops {
 public:
  void push_back(const TemporalLoop& loop) { loops_[size_++] = loop; }
  std::size_t size() const { return size_; }
  const TemporalLoop* begin() const { return loops_.data(); }
  const TemporalLoop* end() const { return loops_.data() + size_; }
  std::reverse_iterator<const TemporalLoop*> rbegin() const { return std::reverse_iterator(end()); }
  std::reverse_iterator<const TemporalLoop*> rend() const { return std::reverse_iterator(begin()); }

 private:
  std::array<TemporalLoop, 4> loops_{};
  std::size_t size_ = 0;
};
TemporalLoops iterating_loops(const LoopOrder& order, const BlockCounts& blocks);
// Tiles of `tensor` the loops inside `dim`'s loop touch: the slot count from which the tiles are reused
// across that loop (0 when `dim` does not loop).
std::uint64_t tiles_inside(const TemporalLoops& loops, TemporalDim dim, GlbTensor tensor);

struct MappingCost {
  std::uint64_t steps = 0;
  std::uint64_t macs = 0;
  std::uint64_t valid_macs = 0;
  std::uint64_t nonzero_macs = 0;  // at the expected ifmap density
  RfAccesses rf;
  std::uint64_t filter_bus_words = 0;
  std::uint64_t ifmap_bus_words = 0;
  std::uint64_t psum_bus_words = 0;
  std::uint64_t pe_hop_words = 0;
  std::uint64_t glb_reads = 0;
  std::uint64_t glb_writes = 0;
  std::uint64_t filter_dram_words = 0;
  std::uint64_t ifmap_dram_words = 0;  // padded, as deposited in the GLB
  std::uint64_t psum_spill_words = 0;  // written to DRAM, and the same read back
  bool ifmap_halo_reuse = false;       // a row block's ifmap tile takes the rows it shares from the previous one
  std::uint64_t ofmap_dram_words = 0;
  std::uint64_t dram_read_bytes = 0;
  std::uint64_t dram_write_bytes = 0;
  std::uint64_t compute_cycles = 0;  // the busiest PE's MAC cycles, summed over steps
  std::uint64_t peak_active_pes = 0;
  double cycles = 0;  // estimate
  double energy_pj = 0;
  double objective = 0;
};

// The counts that do not depend on the loop order, slots or buffering, computed once per tiling.
struct TilingAnalysis {
  BlockCounts blocks;
  MappingCost base;                // order-independent counts; the order-dependent ones are zero
  std::uint64_t filter_words = 0;  // every filter once (G x M x C x R x S)
  std::uint64_t first_row_block_rows = 0;
  std::uint64_t psum_words = 0;  // every output once (G x N x M x E x F)
  std::uint64_t ofmap_dram_bytes = 0;
  // One sweep over every ifmap tile, fetched whole or (after the first row block) without the rows the
  // previous row block's tile shares: padded words, and bytes as coded per transfer.
  std::uint64_t ifmap_sweep_words = 0, ifmap_sweep_bytes = 0;
  std::uint64_t ifmap_sweep_halo_words = 0, ifmap_sweep_halo_bytes = 0;
  // For the cycle estimate: the average step (without its filter and DRAM traffic, which depend on the
  // order), and the filter words of a full-size step (the first fetch).
  StepLoad average_step;
  double filter_words_per_step = 0;
};

// `with_dram`: also the ifmap sweeps and ofmap bytes (what evaluate_mapping needs); without, only the
// order-independent counts in `base` and the average step (what the mapper's first stage ranks tilings by).
TilingAnalysis analyse_tiling(const LoopNest& nest, const RowStationaryTiling& tiling, const DramEncoding& encoding,
                              bool with_dram = true);

// Order-independent estimate of the array's cycles: every step preloads a full filter tile, DRAM aside.
double array_cycles_without_reuse(const TilingAnalysis& analysis, const ArrayTiming& timing);

// The mapping's counts and cycle estimate (energy and objective left at zero): what the access prices and
// the buffers' capacity do not change.
MappingCost mapping_counts(const LoopNest& nest, const TilingAnalysis& analysis, const RowStationaryMapping& mapping,
                           const DramEncoding& encoding, const ArrayTiming& timing);
// The energy of counts from mapping_counts at these prices, and the same filled in with the objective.
double mapping_energy_pj(const MappingCost& cost, const AccessPrices& energies);
void price_mapping(MappingCost& cost, const AccessPrices& energies, MapperObjective objective);
// Both.
MappingCost evaluate_mapping(const LoopNest& nest, const TilingAnalysis& analysis, const RowStationaryMapping& mapping,
                             const DramEncoding& encoding, const ArrayTiming& timing, const AccessPrices& energies,
                             MapperObjective objective);

}  // namespace ergon
