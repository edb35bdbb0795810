#include "dataflows/row_stationary/row_stationary_mapping.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "dataflows/integer_math.hpp"

namespace ergon {
namespace {

// Input rows (or columns) that `outputs` outputs and `taps` filter taps read.
std::int64_t input_extent(std::int64_t outputs, std::int64_t stride, std::int64_t taps, std::int64_t dilation) {
  return (outputs - 1) * stride + (taps - 1) * dilation + 1;
}

}  // namespace

std::int64_t RowStationaryTiling::group_rows(std::int64_t pe_cols) const {
  return filter_rows * set_folds(pe_cols) * channel_sets * ceil_div(filter_sets, filter_set_columns);
}

std::int64_t RowStationaryTiling::group_cols(std::int64_t pe_cols) const {
  return set_cols(pe_cols) * std::min(filter_sets, filter_set_columns);
}

std::int64_t RowStationaryTiling::pe_rows_used(std::int64_t pe_cols) const {
  return group_rows(pe_cols) * ceil_div(group_sets, group_set_columns);
}

std::int64_t RowStationaryTiling::pe_cols_used(std::int64_t pe_cols) const {
  return group_cols(pe_cols) * std::min(group_sets, group_set_columns);
}

const std::vector<LoopOrder>& all_loop_orders() {
  static const std::vector<LoopOrder> orders = [] {
    LoopOrder order = {TemporalDim::kImages, TemporalDim::kFilters, TemporalDim::kOfmapRows, TemporalDim::kChannels};
    std::vector<LoopOrder> all;
    do all.push_back(order);
    while (std::next_permutation(order.begin(), order.end()));
    return all;
  }();
  return orders;
}

const char* temporal_dim_name(TemporalDim dim) {
  switch (dim) {
    case TemporalDim::kImages: return "images";
    case TemporalDim::kFilters: return "filters";
    case TemporalDim::kOfmapRows: return "ofmap_rows";
    case TemporalDim::kChannels: return "channels";
  }
  return "?";
}

std::string loop_order_name(const LoopOrder& order) {
  std::string name;
  for (const TemporalDim dim : order) name += (name.empty() ? "" : ">") + std::string(temporal_dim_name(dim));
  return name;
}

std::int64_t BlockCounts::of(TemporalDim dim) const {
  switch (dim) {
    case TemporalDim::kImages: return images;
    case TemporalDim::kFilters: return filters;
    case TemporalDim::kOfmapRows: return ofmap_rows;
    case TemporalDim::kChannels: return channels;
  }
  return 1;
}

std::uint64_t BlockCounts::steps() const {
  std::uint64_t total = 1;
  for (const std::int64_t blocks : {groups, images, filters, channels, ofmap_rows, filter_rows, filter_cols}) {
    total *= static_cast<std::uint64_t>(blocks);
  }
  return total;
}

BlockCounts block_counts(const LoopNest& nest, const RowStationaryTiling& t) {
  return {ceil_div(nest.groups, t.group_sets),          ceil_div(nest.images, t.images),
          ceil_div(nest.filters, t.filters_per_step()), ceil_div(nest.channels, t.channels_per_step()),
          ceil_div(nest.ofmap_h, t.ofmap_rows),         ceil_div(nest.filter_h, t.filter_rows),
          ceil_div(nest.filter_w, t.filter_cols)};
}

std::int64_t ifmap_tile_words(const LoopNest& nest, const RowStationaryTiling& t) {
  const std::int64_t rows =
      input_extent(std::min(t.ofmap_rows, nest.ofmap_h), nest.stride_h, nest.filter_h, nest.dilation_h);
  return std::min(t.group_sets, nest.groups) * std::min(t.images, nest.images) *
         std::min(t.channels_per_step(), nest.channels) * rows * nest.ifmap_w();
}

std::int64_t psum_tile_words(const LoopNest& nest, const RowStationaryTiling& t) {
  return std::min(t.group_sets, nest.groups) * std::min(t.images, nest.images) *
         std::min(t.filters_per_step(), nest.filters) * std::min(t.ofmap_rows, nest.ofmap_h) * nest.ofmap_w;
}

std::int64_t filter_tile_words(const LoopNest& nest, const RowStationaryTiling& t) {
  if (nest.kind != LoopNestKind::kConv) return 0;
  return std::min(t.group_sets, nest.groups) * std::min(t.filters_per_step(), nest.filters) *
         std::min(t.channels_per_step(), nest.channels) * nest.filter_h * nest.filter_w;
}

RowSpan ifmap_tile_rows(const LoopNest& nest, const RowStationaryTiling& t, std::int64_t block) {
  const std::int64_t first = block * t.ofmap_rows;
  const std::int64_t last = std::min(nest.ofmap_h, first + t.ofmap_rows) - 1;
  return {first * nest.stride_h, last * nest.stride_h + (nest.filter_h - 1) * nest.dilation_h + 1};
}

namespace {

// What a mapping breaks first, in the order mapping_violation explains it.
enum class Fault {
  kNone,
  kExtent,
  kFoldedSet,
  kArray,
  kFilterRf,
  kIfmapRf,
  kPsumRf,
  kSlots,
  kDoubleSlots,
  kGlb,
  kFilterStore
};

std::int64_t filter_rf_needed(const ArrayResources& hw, const RowStationaryTiling& t) {
  return t.channels_per_pe * t.filters_per_pe * t.filter_cols * (hw.filter_rf_double_buffered ? 2 : 1);
}

// Words the mapping keeps in the GLB and in the filter store (or the GLB, without one).
std::int64_t glb_needed(const LoopNest& nest, const ArrayResources& hw, const RowStationaryMapping& mapping) {
  const MappingFootprint footprint = mapping_footprint(nest, mapping);
  return footprint.glb_words + (hw.filter_store_words > 0 ? 0 : footprint.filter_words);
}

// What a mapping breaks first of the array, its RFs and the slot rules (the buffers' capacity apart).
Fault array_fault(const LoopNest& nest, const ArrayResources& hw, const RowStationaryMapping& mapping) {
  const RowStationaryTiling& t = mapping.tiling;
  const auto within = [](std::int64_t value, std::int64_t high) { return value >= 1 && value <= high; };
  if (!within(t.filter_rows, nest.filter_h) || !within(t.filter_cols, nest.filter_w) ||
      !within(t.ofmap_rows, nest.ofmap_h) || !within(t.channels_per_pe, nest.channels) ||
      !within(t.filters_per_pe, nest.filters) || !within(t.images, nest.images) || !within(t.group_sets, nest.groups) ||
      !within(t.channel_sets, ceil_div(nest.channels, t.channels_per_pe)) ||
      !within(t.filter_sets, ceil_div(nest.filters, t.filters_per_pe)) || t.filter_set_columns < 1 ||
      t.group_set_columns < 1) {
    return Fault::kExtent;
  }
  if (t.set_folds(hw.pe_cols) > 1 && t.filter_set_columns > 1) return Fault::kFoldedSet;
  if (t.pe_rows_used(hw.pe_cols) > hw.pe_rows || t.pe_cols_used(hw.pe_cols) > hw.pe_cols) return Fault::kArray;
  if (nest.kind == LoopNestKind::kConv && filter_rf_needed(hw, t) > hw.filter_rf_words) return Fault::kFilterRf;
  if (t.channels_per_pe * t.filter_cols > hw.ifmap_rf_words) return Fault::kIfmapRf;
  if (t.filters_per_pe > hw.psum_rf_words) return Fault::kPsumRf;
  const GlbSlots& slots = mapping.slots;
  if (slots.ifmap < 1 || slots.psum < 1 || slots.filter < 0) return Fault::kSlots;
  if (mapping.double_buffered && (slots.ifmap < 2 || slots.psum < 2)) return Fault::kDoubleSlots;
  return Fault::kNone;
}

Fault mapping_fault(const LoopNest& nest, const ArrayResources& hw, const RowStationaryMapping& mapping) {
  const Fault fault = array_fault(nest, hw, mapping);
  if (fault != Fault::kNone) return fault;
  if (glb_needed(nest, hw, mapping) > hw.glb_words) return Fault::kGlb;
  if (hw.filter_store_words > 0 && mapping_footprint(nest, mapping).filter_words > hw.filter_store_words) {
    return Fault::kFilterStore;
  }
  return Fault::kNone;
}

}  // namespace

MappingFootprint mapping_footprint(const LoopNest& nest, const RowStationaryMapping& mapping) {
  return {mapping.slots.ifmap * ifmap_tile_words(nest, mapping.tiling) +
              mapping.slots.psum * psum_tile_words(nest, mapping.tiling),
          mapping.slots.filter * filter_tile_words(nest, mapping.tiling)};
}

bool fits_array(const LoopNest& nest, const ArrayResources& hw, const RowStationaryMapping& mapping) {
  return array_fault(nest, hw, mapping) == Fault::kNone;
}

bool mapping_fits(const LoopNest& nest, const ArrayResources& hw, const RowStationaryMapping& mapping) {
  return mapping_fault(nest, hw, mapping) == Fault::kNone;
}

std::string mapping_violation(const LoopNest& nest, const ArrayResources& hw, const RowStationaryMapping& mapping) {
  const RowStationaryTiling& t = mapping.tiling;
  switch (mapping_fault(nest, hw, mapping)) {
    case Fault::kNone: return {};
    case Fault::kExtent: return "a tile size is below 1 or beyond the layer's extent";
    case Fault::kFoldedSet: return "a folded set leaves no columns for more sets";
    case Fault::kArray:
      return fmt::format("the sets need {} x {} PEs; the array has {} x {}", t.pe_rows_used(hw.pe_cols),
                         t.pe_cols_used(hw.pe_cols), hw.pe_rows, hw.pe_cols);
    case Fault::kFilterRf:
      return fmt::format("q x p x filter columns needs {} filter RF words; a PE has {}", filter_rf_needed(hw, t),
                         hw.filter_rf_words);
    case Fault::kIfmapRf:
      return fmt::format("q x filter columns needs {} ifmap RF words; a PE has {}", t.channels_per_pe * t.filter_cols,
                         hw.ifmap_rf_words);
    case Fault::kPsumRf:
      return fmt::format("p = {} psums per PE; a PE has {} psum RF words", t.filters_per_pe, hw.psum_rf_words);
    case Fault::kSlots: return "the GLB keeps at least one ifmap and psum tile";
    case Fault::kDoubleSlots:
      return "double buffering needs two ifmap and two psum slots (one in use, one being staged)";
    case Fault::kGlb:
      return fmt::format("the GLB holds {} words; the mapping keeps {}", hw.glb_words, glb_needed(nest, hw, mapping));
    case Fault::kFilterStore:
      return fmt::format("the filter store holds {} words; the mapping keeps {}", hw.filter_store_words,
                         mapping_footprint(nest, mapping).filter_words);
  }
  return {};
}

}  // namespace ergon
