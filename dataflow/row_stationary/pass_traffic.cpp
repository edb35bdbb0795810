#include "dataflow/row_stationary/pass_traffic.hpp"

#include <cmath>

namespace ergon {
namespace {

using u64 = std::uint64_t;

u64 count(std::int64_t value) {
  return static_cast<u64>(value);
}

bool same(const IndexRange& a, const IndexRange& b) {
  return a.begin == b.begin && a.end == b.end;
}

bool same_filters(const PassTiles& a, const PassTiles& b) {
  return same(a.groups, b.groups) && same(a.filters, b.filters) && same(a.channels, b.channels) &&
         same(a.filter_rows, b.filter_rows) && same(a.filter_cols, b.filter_cols);
}

bool same_ifmap(const PassTiles& a, const PassTiles& b) {
  return same(a.groups, b.groups) && same(a.images, b.images) && same(a.channels, b.channels) &&
         same(a.input_rows, b.input_rows) && same(a.input_cols, b.input_cols);
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

// Pairs (output, tap) whose input position lies inside the stored input rather than the padding.
u64 valid_taps(IndexRange outputs, IndexRange taps, std::int64_t stride, std::int64_t dilation, std::int64_t pad,
               std::int64_t extent) {
  u64 valid = 0;
  for (std::int64_t o = outputs.begin; o < outputs.end; ++o) {
    for (std::int64_t k = taps.begin; k < taps.end; ++k) {
      const std::int64_t position = o * stride + k * dilation - pad;
      valid += (position >= 0 && position < extent) ? 1 : 0;
    }
  }
  return valid;
}

}  // namespace

PassTiles pass_tiles(const LoopNest& nest, const RowStationaryPass& pass) {
  PassTiles tiles{pass.groups, pass.images, pass.filters, pass.channels, pass.filter_rows, pass.filter_cols, {}, {}};
  const std::int64_t first_row = pass.ofmap_rows.begin * nest.stride_h + pass.filter_rows.begin * nest.dilation_h;
  const std::int64_t last_row =
      (pass.ofmap_rows.end - 1) * nest.stride_h + (pass.filter_rows.end - 1) * nest.dilation_h;
  tiles.input_rows = {first_row, last_row + 1};
  const std::int64_t first_col = pass.filter_cols.begin * nest.dilation_w;
  const std::int64_t last_col = (nest.ofmap_w - 1) * nest.stride_w + (pass.filter_cols.end - 1) * nest.dilation_w;
  tiles.input_cols = {first_col, last_col + 1};
  return tiles;
}

PassTraffic pass_traffic(const LoopNest& nest, const RowStationaryTiling& tiling, const RowStationaryPass& pass,
                         const std::optional<PassTiles>& previous, double ifmap_density) {
  const PassTiles tiles = pass_tiles(nest, pass);
  // Every count is per group, times the groups mapped side by side.
  const u64 g = count(pass.groups.size());
  const u64 n = count(pass.images.size()), m = count(pass.filters.size()), c = count(pass.channels.size());
  const u64 e = count(pass.ofmap_rows.size()), r = count(pass.filter_rows.size()), s = count(pass.filter_cols.size());
  const u64 f = count(nest.ofmap_w);
  const u64 input_cols = count(tiles.input_cols.size());
  const bool weights = nest.kind == LoopNestKind::kConv;
  const bool filters_resident = previous && same_filters(*previous, tiles);
  const bool ifmap_resident = previous && same_ifmap(*previous, tiles);

  PassTraffic t;
  t.macs = pass.operations(nest.ofmap_w);
  if (nest.kind == LoopNestKind::kConv) {  // MACs on padding read zeros and are gated, like zero ifmap values
    const u64 valid =
        g * n * m * c *
        valid_taps(pass.ofmap_rows, pass.filter_rows, nest.stride_h, nest.dilation_h, nest.pad_top, nest.input_h) *
        valid_taps({0, nest.ofmap_w}, pass.filter_cols, nest.stride_w, nest.dilation_w, nest.pad_left, nest.input_w);
    t.nonzero_macs = static_cast<u64>(std::llround(static_cast<double>(valid) * ifmap_density));
  } else {
    t.nonzero_macs = t.macs;  // pooling compares every value
  }
  const u64 filter_words = weights ? g * m * c * r * s : 0;
  const u64 ifmap_words = g * n * c * count(tiles.input_rows.size()) * input_cols;
  const u64 psum_words = g * n * m * e * f;

  t.filter_dram_words = filters_resident ? 0 : filter_words;
  t.ifmap_dram_words = ifmap_resident ? 0 : ifmap_words;
  if (!ifmap_resident) {
    const auto stored = [](IndexRange range, std::int64_t pad, std::int64_t extent) {
      return count(std::max<std::int64_t>(0, std::min(range.end, pad + extent) - std::max(range.begin, pad)));
    };
    t.ifmap_dram_stored_words = g * n * c * stored(tiles.input_rows, nest.pad_top, nest.input_h) *
                                stored(tiles.input_cols, nest.pad_left, nest.input_w);
  }
  t.ofmap_dram_words = pass.last_accumulation ? psum_words : 0;

  // Filters stay in the PEs' RFs while the filter tile is unchanged; ifmaps are streamed every pass.
  t.filter_bus_words = filters_resident ? 0 : filter_words;
  t.ifmap_bus_words = ifmap_words;
  const u64 psum_reads = pass.first_accumulation ? 0 : psum_words;
  t.psum_bus_words = psum_reads + psum_words;  // partial sums in, results out
  t.psum_glb_reads = psum_reads;
  t.psum_glb_writes = psum_words;
  t.glb_writes = t.filter_dram_words + t.ifmap_dram_words + psum_words;
  t.glb_reads = t.filter_bus_words + t.ifmap_bus_words + psum_reads + t.ofmap_dram_words;

  const std::int64_t channel_sets_used =
      std::min(tiling.channel_sets, ceil_div(pass.channels.size(), tiling.channels_per_pe));
  const std::int64_t filter_sets_used =
      std::min(tiling.filter_sets, ceil_div(pass.filters.size(), tiling.filters_per_pe));
  const u64 column_height = r * count(channel_sets_used);
  t.inter_pe_psum_words = psum_words * (column_height - 1);
  t.active_pes = g * column_height * count(filter_sets_used) * e;

  // RF: every MAC reads its ifmap operand; a non-zero one also reads the filter and reads and writes the
  // psum. Filling: each filter word lands in the e PEs of its row; each PE receives its ifmap row segment.
  const u64 filter_rf_writes = t.filter_bus_words * e;
  const u64 ifmap_rf_writes = g * n * c * r * e * input_cols * count(filter_sets_used);
  t.rf_accesses = t.macs + 3 * t.nonzero_macs + filter_rf_writes + ifmap_rf_writes;

  const u64 channels_per_pe = count(std::min(tiling.channels_per_pe, pass.channels.size()));
  const u64 filters_per_pe = count(std::min(tiling.filters_per_pe, pass.filters.size()));
  t.compute_cycles = n * channels_per_pe * filters_per_pe * f * s;
  t.accumulation_latency_cycles = column_height - 1;
  return t;
}

}  // namespace ergon
