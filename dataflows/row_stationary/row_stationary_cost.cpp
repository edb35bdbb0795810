#include "dataflows/row_stationary/row_stationary_cost.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "dataflows/integer_math.hpp"
#include "dataflows/row_stationary/step_traffic.hpp"

namespace ergon {
namespace {

using u64 = std::uint64_t;

// The block sizes of an extent cut in tiles: the full tiles and, if any, one smaller edge tile.
struct SizeClass {
  std::int64_t size = 0;
  std::int64_t count = 0;
};
struct SizeClasses {
  SizeClass items[2];
  int used = 0;
  const SizeClass* begin() const { return items; }
  const SizeClass* end() const { return items + used; }
};
SizeClasses size_classes(std::int64_t extent, std::int64_t tile) {
  SizeClasses classes;
  if (extent / tile > 0) classes.items[classes.used++] = {tile, extent / tile};
  if (extent % tile > 0) classes.items[classes.used++] = {extent % tile, 1};
  return classes;
}

template <typename Function>
u64 sum_over(const SizeClasses& classes, Function&& value) {
  u64 total = 0;
  for (const SizeClass& c : classes) total += as_count(c.count) * static_cast<u64>(value(c.size));
  return total;
}

// One sweep over every ifmap tile, in words and coded bytes; `halo`: later row blocks skip the rows the
// previous row block's tile shares.
void ifmap_sweep(const LoopNest& nest, const RowStationaryTiling& t, const DramEncoding& encoding,
                 const BlockCounts& blocks, bool halo, u64& words, u64& bytes) {
  words = bytes = 0;
  const std::int64_t stored_cols = overlap_length(0, nest.ifmap_w(), nest.pad_left, nest.pad_left + nest.input_w);
  for (const SizeClass& g : size_classes(nest.groups, t.group_sets)) {
    for (const SizeClass& n : size_classes(nest.images, t.images)) {
      for (const SizeClass& c : size_classes(nest.channels, t.channels_per_step())) {
        const std::int64_t planes = g.size * n.size * c.size;
        const u64 tiles = as_count(g.count * n.count * c.count);
        std::int64_t previous_end = 0;
        for (std::int64_t block = 0; block < blocks.ofmap_rows; ++block) {
          RowSpan rows = ifmap_tile_rows(nest, t, block);
          const std::int64_t end = rows.end;
          if (halo && block > 0) rows.begin = std::max(rows.begin, previous_end);
          previous_end = end;
          const std::int64_t fetched_rows = std::max<std::int64_t>(0, rows.end - rows.begin);
          const auto stored = as_count(
              planes * overlap_length(rows.begin, rows.end, nest.pad_top, nest.pad_top + nest.input_h) * stored_cols);
          words += tiles * as_count(planes * fetched_rows * nest.ifmap_w());
          bytes += tiles * encoding.ifmap_bytes(stored, DramEncoding::expected(stored, encoding.ifmap_density));
        }
      }
    }
  }
}

// How many times each tile of a tensor is fetched, under least-recently-used slots (see the header).
u64 refetch_factor(const TemporalLoops& loops, GlbTensor tensor, std::int64_t slots) {
  u64 tiles = 1, factor = 1;
  for (auto loop = loops.rbegin(); loop != loops.rend(); ++loop) {
    if (depends_on(tensor, loop->dim)) {
      tiles *= as_count(loop->bound);
    } else if (tiles > as_count(slots)) {
      factor *= as_count(loop->bound);
    }
  }
  return factor;
}

}  // namespace

bool depends_on(GlbTensor tensor, TemporalDim dim) {
  switch (tensor) {
    case GlbTensor::kIfmap: return dim != TemporalDim::kFilters;
    case GlbTensor::kFilter: return dim == TemporalDim::kFilters || dim == TemporalDim::kChannels;
    case GlbTensor::kPsum: return dim != TemporalDim::kChannels;
  }
  return true;
}

TemporalLoops iterating_loops(const LoopOrder& order, const BlockCounts& blocks) {
  TemporalLoops loops;
  for (const TemporalDim dim : order) {
    if (blocks.of(dim) > 1) loops.push_back({dim, blocks.of(dim)});
  }
  return loops;
}

std::uint64_t tiles_inside(const TemporalLoops& loops, TemporalDim dim, GlbTensor tensor) {
  u64 tiles = 1;
  for (auto loop = loops.rbegin(); loop != loops.rend(); ++loop) {
    if (loop->dim == dim) return tiles;
    if (depends_on(tensor, loop->dim)) tiles *= as_count(loop->bound);
  }
  return 0;
}

TilingAnalysis analyse_tiling(const LoopNest& nest, const RowStationaryTiling& t, const DramEncoding& encoding,
                              bool with_dram) {
  TilingAnalysis a;
  const BlockCounts& b = a.blocks = block_counts(nest, t);
  MappingCost& base = a.base;
  const bool weights = nest.kind == LoopNestKind::kConv;
  const std::int64_t G = nest.groups, N = nest.images, M = nest.filters, C = nest.channels;
  const std::int64_t E = nest.ofmap_h, F = nest.ofmap_w, R = nest.filter_h, S = nest.filter_w;
  const std::int64_t q = t.channels_per_pe, p = t.filters_per_pe;
  const auto channel_sets_used = [&](std::int64_t c) { return std::min(t.channel_sets, ceil_div(c, q)); };
  const auto filter_sets_used = [&](std::int64_t m) { return std::min(t.filter_sets, ceil_div(m, p)); };
  const auto channels = size_classes(C, t.channels_per_step());
  const auto filters = size_classes(M, t.filters_per_step());

  base.steps = b.steps();
  base.macs = nest.operations();
  base.valid_macs = weights
                        ? as_count(G * N * M * C) *
                              valid_taps({0, E}, {0, R}, nest.stride_h, nest.dilation_h, nest.pad_top, nest.input_h) *
                              valid_taps({0, F}, {0, S}, nest.stride_w, nest.dilation_w, nest.pad_left, nest.input_w)
                        : base.macs;
  base.nonzero_macs = DramEncoding::expected(base.valid_macs, encoding.ifmap_density);

  // Input rows and columns sent per step, summed over the row blocks x filter-row folds and column folds.
  const u64 rows_sent = as_count(b.filter_rows * nest.stride_h * (E - b.ofmap_rows) +
                                 b.ofmap_rows * nest.dilation_h * (R - b.filter_rows) + b.ofmap_rows * b.filter_rows);
  const u64 cols_sent = as_count(b.filter_cols * ((F - 1) * nest.stride_w + 1) + nest.dilation_w * (S - b.filter_cols));
  base.ifmap_bus_words = as_count(G * N * C * b.filters) * rows_sent * cols_sent;

  a.psum_words = as_count(G * N * M * E * F);
  const u64 accumulations = as_count(b.channels * b.filter_rows * b.filter_cols);
  const u64 psum_writes = a.psum_words * accumulations, psum_reads = a.psum_words * (accumulations - 1);
  base.psum_bus_words = psum_writes + psum_reads;
  const u64 channel_sets_total = sum_over(channels, channel_sets_used);
  base.pe_hop_words = a.psum_words * as_count(b.filter_cols) *
                      (as_count(R) * channel_sets_total - as_count(b.channels * b.filter_rows));
  base.peak_active_pes = as_count(std::min(t.group_sets, G) * std::min(t.filter_rows, R) *
                                  channel_sets_used(std::min(t.channels_per_step(), C)) *
                                  filter_sets_used(std::min(t.filters_per_step(), M)) * std::min(t.ofmap_rows, E));
  const u64 ifmap_rf_writes = as_count(G * N * C * R * E) * cols_sent * sum_over(filters, filter_sets_used);
  base.rf.ifmap_reads = base.macs;  // every MAC reads its ifmap operand; a computed one its filter and psum too
  base.rf.filter_reads = base.rf.psum_reads = base.rf.psum_writes = base.nonzero_macs;
  base.rf.ifmap_writes = ifmap_rf_writes;
  base.compute_cycles = as_count(N * F * S * b.groups * b.ofmap_rows * b.filter_rows) *
                        sum_over(channels, [q](std::int64_t c) { return std::min(q, c); }) *
                        sum_over(filters, [p](std::int64_t m) { return std::min(p, m); });
  base.glb_writes = psum_writes;
  base.glb_reads = base.ifmap_bus_words + psum_reads + a.psum_words;  // + the ofmap leaving for DRAM
  base.ofmap_dram_words = a.psum_words;

  a.filter_words = weights ? as_count(G * M * C * R * S) : 0;
  a.first_row_block_rows = as_count(std::min(t.ofmap_rows, E));
  // The average step, for the cycle estimate: the order-independent traffic over the steps, streamed like
  // a full-size tile.
  const double steps = static_cast<double>(base.steps);
  StepLoad& load = a.average_step;
  load.ifmap_words = static_cast<double>(base.ifmap_bus_words) / steps;
  load.compute_cycles = static_cast<double>(base.compute_cycles) / steps;
  load.ripple_cycles =
      static_cast<double>(std::min(t.filter_rows, R) * channel_sets_used(std::min(t.channels_per_step(), C)) - 1);
  load.psum_reads = static_cast<double>(psum_reads) / steps;
  load.psum_writes = static_cast<double>(psum_writes) / steps;
  load.ofmap_reads = static_cast<double>(a.psum_words) / steps;
  const std::int64_t tile_rows = std::min(t.ofmap_rows, E), tile_taps = std::min(t.filter_cols, S);
  IfmapStream& stream = load.stream;
  stream.window_columns = as_count((tile_taps - 1) * nest.dilation_w + 1);
  stream.words_per_column =
      as_count(std::min(t.group_sets, G) * std::min(t.channels_per_step(), C) *
               ((tile_rows - 1) * nest.stride_h + (std::min(t.filter_rows, R) - 1) * nest.dilation_h + 1));
  stream.columns_per_step = as_count(nest.stride_w);
  stream.steps_per_image = as_count(F);
  stream.columns_per_image = as_count(F - 1) * stream.columns_per_step + stream.window_columns;
  stream.images = as_count(std::min(t.images, N));
  stream.channels_per_pe = as_count(std::min(q, C));
  a.filter_words_per_step =
      weights ? static_cast<double>(std::min(t.group_sets, G) * std::min(t.filters_per_step(), M) *
                                    std::min(t.channels_per_step(), C) * std::min(t.filter_rows, R) * tile_taps)
              : 0.0;
  if (!with_dram) return a;
  for (const SizeClass& g : size_classes(G, t.group_sets)) {
    for (const SizeClass& n : size_classes(N, t.images)) {
      for (const SizeClass& m : filters) {
        for (const SizeClass& e : size_classes(E, t.ofmap_rows)) {
          a.ofmap_dram_bytes += as_count(g.count * n.count * m.count * e.count) *
                                encoding.ofmap_bytes(as_count(g.size * n.size * m.size * e.size * F));
        }
      }
    }
  }
  ifmap_sweep(nest, t, encoding, b, false, a.ifmap_sweep_words, a.ifmap_sweep_bytes);
  ifmap_sweep(nest, t, encoding, b, true, a.ifmap_sweep_halo_words, a.ifmap_sweep_halo_bytes);

  return a;
}

double array_cycles_without_reuse(const TilingAnalysis& analysis, const ArrayTiming& timing) {
  StepLoad load = analysis.average_step;
  load.filter_words = analysis.filter_words_per_step;
  return static_cast<double>(analysis.base.steps) * step_timing(load, timing).total();
}

MappingCost mapping_counts(const LoopNest& nest, const TilingAnalysis& a, const RowStationaryMapping& mapping,
                           const DramEncoding& encoding, const ArrayTiming& timing) {
  MappingCost cost = a.base;
  const BlockCounts& b = a.blocks;
  const TemporalLoops loops = iterating_loops(mapping.order, b);
  const GlbSlots& slots = mapping.slots;

  // Filters in the PEs: the innermost loops over images and ofmap rows keep them (not with folds).
  bool kept_over_images = false, kept_over_rows = false;
  if (b.filter_rows * b.filter_cols == 1) {
    for (auto loop = loops.rbegin(); loop != loops.rend() && !depends_on(GlbTensor::kFilter, loop->dim); ++loop) {
      (loop->dim == TemporalDim::kImages ? kept_over_images : kept_over_rows) = true;
    }
  }
  const u64 image_reloads = kept_over_images ? 1 : as_count(b.images);
  cost.filter_bus_words = a.filter_words * image_reloads * (kept_over_rows ? 1 : as_count(b.ofmap_rows));
  const u64 filter_rf_writes =
      a.filter_words * image_reloads * (kept_over_rows ? a.first_row_block_rows : as_count(nest.ofmap_h));
  cost.filter_dram_words = slots.filter == 0 ? cost.filter_bus_words
                                             : a.filter_words * refetch_factor(loops, GlbTensor::kFilter, slots.filter);

  const u64 ifmap_factor = refetch_factor(loops, GlbTensor::kIfmap, slots.ifmap);
  const u64 rows_inside = tiles_inside(loops, TemporalDim::kOfmapRows, GlbTensor::kIfmap);
  const bool halo = rows_inside > 0 && rows_inside <= as_count(slots.ifmap);
  cost.ifmap_halo_reuse = halo;
  cost.ifmap_dram_words = ifmap_factor * (halo ? a.ifmap_sweep_halo_words : a.ifmap_sweep_words);
  const u64 ifmap_bytes = ifmap_factor * (halo ? a.ifmap_sweep_halo_bytes : a.ifmap_sweep_bytes);

  const u64 psums_inside = tiles_inside(loops, TemporalDim::kChannels, GlbTensor::kPsum);
  const bool spill = psums_inside > as_count(slots.psum);
  cost.psum_spill_words = spill ? as_count(b.channels - 1) * a.psum_words : 0;

  cost.rf.filter_writes += filter_rf_writes;
  cost.glb_writes += cost.filter_dram_words + cost.ifmap_dram_words + cost.psum_spill_words;
  cost.glb_reads += cost.filter_bus_words + cost.psum_spill_words;
  cost.dram_read_bytes =
      encoding.weight_bytes(cost.filter_dram_words) + ifmap_bytes + encoding.raw_bytes(cost.psum_spill_words);
  cost.dram_write_bytes = a.ofmap_dram_bytes + encoding.raw_bytes(cost.psum_spill_words);

  // Cycles: the average step's preload and stream at this mapping's filter and DRAM traffic; DRAM transfers
  // overlap the array when double-buffered.
  const double steps = static_cast<double>(cost.steps);
  StepLoad load = a.average_step;
  load.filter_words = static_cast<double>(cost.filter_bus_words) / steps;
  load.deposits = static_cast<double>(cost.filter_dram_words + cost.ifmap_dram_words + cost.psum_spill_words) / steps;
  const double step_cycles = step_timing(load, timing).total();
  const double dram_cycles =
      static_cast<double>(cost.dram_read_bytes + cost.dram_write_bytes) / timing.dram_bytes_per_cycle;
  const double filter_tile_cycles = a.filter_words_per_step * encoding.word_bits / 8 / timing.dram_bytes_per_cycle;
  const double first_fetch =
      filter_tile_cycles +
      static_cast<double>(ifmap_bytes) / static_cast<double>(ifmap_factor) /
          static_cast<double>(std::max<std::int64_t>(1, b.groups * b.images * b.channels * b.ofmap_rows)) /
          timing.dram_bytes_per_cycle +
      timing.dram_latency_cycles;
  if (mapping.double_buffered) {
    // A step's fetch overlaps the previous step's compute, so fetches are lumpy: the steps that bring a new
    // filter tile from DRAM carry its bytes on top of their share of the rest.
    const double filter_steps =
        a.filter_words_per_step > 0
            ? std::min(steps, static_cast<double>(cost.filter_dram_words) / a.filter_words_per_step)
            : 0.0;
    const double other_cycles = std::max(0.0, dram_cycles - filter_steps * filter_tile_cycles) / steps;
    cost.cycles = filter_steps * std::max(step_cycles, filter_tile_cycles + other_cycles) +
                  (steps - filter_steps) * std::max(step_cycles, other_cycles) + first_fetch;
  } else {
    cost.cycles = steps * step_cycles + dram_cycles + first_fetch;
  }
  return cost;
}

double mapping_energy_pj(const MappingCost& cost, const AccessPrices& energies) {
  return on_chip_pj(energies, on_chip_counts(cost)) +
         static_cast<double>(cost.dram_read_bytes) * energies[Action::kDramRead] +
         static_cast<double>(cost.dram_write_bytes) * energies[Action::kDramWrite] + cost.cycles * energies.cycle_pj;
}

void price_mapping(MappingCost& cost, const AccessPrices& energies, MapperObjective objective) {
  cost.energy_pj = mapping_energy_pj(cost, energies);
  cost.objective = objective_value(objective, cost.energy_pj, cost.cycles);
}

MappingCost evaluate_mapping(const LoopNest& nest, const TilingAnalysis& analysis, const RowStationaryMapping& mapping,
                             const DramEncoding& encoding, const ArrayTiming& timing, const AccessPrices& energies,
                             MapperObjective objective) {
  MappingCost cost = mapping_counts(nest, analysis, mapping, encoding, timing);
  price_mapping(cost, energies, objective);
  return cost;
}

}  // namespace ergon
