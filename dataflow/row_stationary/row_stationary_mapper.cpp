#include "dataflow/row_stationary/row_stationary_mapper.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ergon {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

// Input rows (or columns) a tile of `outputs` outputs and `taps` filter taps reads.
std::int64_t input_extent(std::int64_t outputs, std::int64_t stride, std::int64_t taps, std::int64_t dilation) {
  return (outputs - 1) * stride + (taps - 1) * dilation + 1;
}

std::int64_t tile_words(const LoopNest& nest, const RowStationaryTiling& t) {
  const std::int64_t ifmap = t.images * std::min(t.channels_per_pass(), nest.channels) *
                             input_extent(t.ofmap_rows, nest.stride_h, t.filter_rows, nest.dilation_h) *
                             input_extent(nest.ofmap_w, nest.stride_w, t.filter_cols, nest.dilation_w);
  const std::int64_t psum = t.images * std::min(t.filters_per_pass(), nest.filters) * t.ofmap_rows * nest.ofmap_w;
  // Double buffering: the next pass's ifmap tile is staged while this one's is used.
  return (2 * ifmap + psum) * std::min(t.group_sets, nest.groups);
}

// Groups (depthwise convolutions and pooling have one channel each) side by side in the PEs one group's
// sets leave free.
void place_group_sets(const LoopNest& nest, const ArrayResources& hw, RowStationaryTiling& t) {
  t.group_set_columns = std::max<std::int64_t>(hw.pe_cols / t.group_cols(), 1);
  const std::int64_t group_set_rows = std::max<std::int64_t>(hw.pe_rows / t.group_rows(), 1);
  t.group_sets = std::clamp<std::int64_t>(nest.groups, 1, group_set_rows * t.group_set_columns);
}

// The largest tiles the PE array and its register files allow (the GLB is not yet considered).
RowStationaryTiling array_tiling(const LoopNest& nest, const ArrayResources& hw) {
  RowStationaryTiling t;
  t.filter_rows = std::min(nest.filter_h, hw.pe_rows);
  t.filter_cols = std::min({nest.filter_w, hw.ifmap_rf_words, hw.filter_rf_words});
  t.ofmap_rows = std::min(nest.ofmap_h, hw.pe_cols);
  t.channels_per_pe = std::clamp<std::int64_t>(hw.ifmap_rf_words / t.filter_cols, 1, nest.channels);
  t.channels_per_pe = std::min(t.channels_per_pe, std::max<std::int64_t>(hw.filter_rf_words / t.filter_cols, 1));
  const std::int64_t filters_by_rf = hw.filter_rf_words / (t.channels_per_pe * t.filter_cols);
  t.filters_per_pe = std::clamp<std::int64_t>(std::min(filters_by_rf, hw.psum_rf_words), 1, nest.filters);
  // Stack sets: channels first (their psums are summed in the array, saving GLB traffic), then filters.
  const std::int64_t stackable = hw.pe_rows / t.filter_rows;
  t.channel_sets = std::clamp<std::int64_t>(ceil_div(nest.channels, t.channels_per_pe), 1, stackable);
  // Spare columns (ofmap rows fewer than PE columns, as in FC layers) hold more filter sets side by side.
  t.filter_set_columns = std::max<std::int64_t>(hw.pe_cols / t.ofmap_rows, 1);
  t.filter_sets = std::clamp<std::int64_t>(ceil_div(nest.filters, t.filters_per_pe), 1,
                                           stackable / t.channel_sets * t.filter_set_columns);
  t.images = nest.images;
  place_group_sets(nest, hw, t);
  return t;
}

// Halves one tile dimension, in the order that costs the least reuse; false when all are 1.
bool shrink(RowStationaryTiling& t) {
  for (std::int64_t* dimension : {&t.images, &t.group_sets, &t.filter_sets, &t.channel_sets, &t.ofmap_rows,
                                  &t.channels_per_pe, &t.filters_per_pe, &t.filter_rows, &t.filter_cols}) {
    if (*dimension > 1) {
      *dimension = ceil_div(*dimension, 2);
      return true;
    }
  }
  return false;
}

}  // namespace

std::uint64_t RowStationaryPass::operations(std::int64_t ofmap_w) const {
  std::uint64_t total = static_cast<std::uint64_t>(ofmap_w);
  for (const IndexRange& range : {groups, images, filters, channels, ofmap_rows, filter_rows, filter_cols}) {
    total *= static_cast<std::uint64_t>(range.size());
  }
  return total;
}

std::int64_t glb_tile_words(const LoopNest& nest, const RowStationaryPass& pass) {
  const std::int64_t ifmap =
      pass.images.size() * pass.channels.size() *
      input_extent(pass.ofmap_rows.size(), nest.stride_h, pass.filter_rows.size(), nest.dilation_h) *
      input_extent(nest.ofmap_w, nest.stride_w, pass.filter_cols.size(), nest.dilation_w);
  return (2 * ifmap + pass.images.size() * pass.filters.size() * pass.ofmap_rows.size() * nest.ofmap_w) *
         pass.groups.size();
}

RowStationarySchedule::RowStationarySchedule(LoopNest nest, RowStationaryTiling tiling)
    : nest_(nest), tiling_(tiling) {}

std::uint64_t RowStationarySchedule::pass_count() const {
  const auto blocks = [](std::int64_t extent, std::int64_t tile) {
    return static_cast<std::uint64_t>(ceil_div(extent, tile));
  };
  return blocks(nest_.groups, tiling_.group_sets) * blocks(nest_.images, tiling_.images) *
         blocks(nest_.filters, tiling_.filters_per_pass()) * blocks(nest_.ofmap_h, tiling_.ofmap_rows) *
         blocks(nest_.channels, tiling_.channels_per_pass()) * blocks(nest_.filter_h, tiling_.filter_rows) *
         blocks(nest_.filter_w, tiling_.filter_cols);
}

RowStationarySchedule map_row_stationary(const LoopNest& nest, const ArrayResources& resources) {
  RowStationaryTiling tiling = array_tiling(nest, resources);
  while (tile_words(nest, tiling) > resources.glb_words) {
    if (!shrink(tiling)) {
      throw MappingError(fmt::format(
          "the global buffer ({} words) cannot hold the smallest row-stationary tile ({} words: one ifmap row "
          "segment and one psum row of width {}); enlarge glb.size_kib",
          resources.glb_words, tile_words(nest, tiling), nest.ofmap_w));
    }
  }
  return RowStationarySchedule(nest, tiling);
}

}  // namespace ergon
