#include "dataflows/row_stationary/row_stationary_staging.hpp"

#include <algorithm>
#include <cmath>

#include "dataflows/integer_math.hpp"

namespace ergon {
namespace {
using u64 = std::uint64_t;
}  // namespace

RowStationaryStaging::RowStationaryStaging(const RowStationarySchedule& schedule, GlbContents& glb,
                                           double ifmap_density)
    : schedule_(schedule), glb_(glb), density_(ifmap_density) {
  const GlbSlots& slots = schedule.mapping().slots;
  glb_.ifmaps.reset(slots.ifmap);
  glb_.psums.reset(slots.psum);
  glb_.filters.reset(slots.filter);
}

StepTraffic RowStationaryStaging::stage(const RowStationaryStep& step) {
  const BlockCounts& b = schedule_.blocks();
  const StepBlocks& at = step.blocks;
  const FilterKey filters{as_count((at.group * b.filters + at.filter) * b.channels + at.channel), at.filter_row,
                          at.filter_col};
  const bool filters_in_pes = filters_in_pes_ && filters_in_pes_->tile == filters.tile &&
                              filters_in_pes_->filter_row == filters.filter_row &&
                              filters_in_pes_->filter_col == filters.filter_col;
  filters_in_pes_ = filters;
  StepTraffic traffic = step_traffic(schedule_.nest(), schedule_.tiling(), step, filters_in_pes);
  valid_macs_so_far_ += traffic.valid_macs;
  const auto expected = static_cast<u64>(std::llround(static_cast<double>(valid_macs_so_far_) * density_));
  set_nonzero_macs(traffic, expected - nonzero_macs_so_far_);
  nonzero_macs_so_far_ = expected;

  GlbFetch fetch;
  if (schedule_.nest().kind == LoopNestKind::kConv && !filters_in_pes)
    stage_filters(step, filters.tile, traffic, fetch);
  stage_ifmap(step, fetch);
  stage_psums(step, fetch);
  add_glb_fetch(traffic, fetch);
  return traffic;
}

void RowStationaryStaging::stage_filters(const RowStationaryStep& step, std::uint64_t tile, const StepTraffic& traffic,
                                         GlbFetch& fetch) {
  if (glb_.filters.slots() == 0) {  // streamed: the folds the PEs need, straight from DRAM
    fetch.filter_dram_words = traffic.filter_bus_words;
    return;
  }
  if (glb_.filters.touch(tile)) return;
  glb_.filters.admit(tile);
  const LoopNest& nest = schedule_.nest();
  fetch.filter_dram_words =
      as_count(step.groups.size() * step.filters.size() * step.channels.size() * nest.filter_h * nest.filter_w);
}

void RowStationaryStaging::stage_ifmap(const RowStationaryStep& step, GlbFetch& fetch) {
  const BlockCounts& b = schedule_.blocks();
  const StepBlocks& at = step.blocks;
  const auto key_of = [&](std::int64_t row_block) {
    return as_count(((at.group * b.images + at.image) * b.channels + at.channel) * b.ofmap_rows + row_block);
  };
  const u64 key = key_of(at.ofmap_row);
  fetched_ifmap_rows_ = {};
  if (glb_.ifmaps.touch(key)) return;
  const LoopNest& nest = schedule_.nest();
  RowSpan rows = ifmap_tile_rows(nest, schedule_.tiling(), at.ofmap_row);
  if (at.ofmap_row > 0 && glb_.ifmaps.contains(key_of(at.ofmap_row - 1))) {
    rows.begin = std::max(rows.begin, ifmap_tile_rows(nest, schedule_.tiling(), at.ofmap_row - 1).end);
  }
  glb_.ifmaps.admit(key);
  fetched_ifmap_rows_ = {rows.begin, std::max(rows.begin, rows.end)};
  const std::int64_t planes = step.groups.size() * step.images.size() * step.channels.size();
  const std::int64_t stored_cols = overlap_length(0, nest.ifmap_w(), nest.pad_left, nest.pad_left + nest.input_w);
  const std::int64_t stored_rows = overlap_length(rows.begin, rows.end, nest.pad_top, nest.pad_top + nest.input_h);
  fetch.ifmap_dram_words = as_count(planes * std::max<std::int64_t>(0, rows.end - rows.begin) * nest.ifmap_w());
  fetch.ifmap_dram_stored_words = as_count(planes * stored_rows * stored_cols);
}

std::uint64_t RowStationaryStaging::psum_words(std::uint64_t key) const {
  const BlockCounts& b = schedule_.blocks();
  const RowStationaryTiling& t = schedule_.tiling();
  const LoopNest& nest = schedule_.nest();
  const auto size = [](std::int64_t block, std::int64_t tile, std::int64_t extent) {
    return std::min(extent, (block + 1) * tile) - block * tile;
  };
  auto rest = static_cast<std::int64_t>(key);
  const std::int64_t row_block = rest % b.ofmap_rows;
  rest /= b.ofmap_rows;
  const std::int64_t filter_block = rest % b.filters;
  rest /= b.filters;
  const std::int64_t image_block = rest % b.images;
  const std::int64_t group_block = rest / b.images;
  return as_count(size(group_block, t.group_sets, nest.groups) * size(image_block, t.images, nest.images) *
                  size(filter_block, t.filters_per_step(), nest.filters) * size(row_block, t.ofmap_rows, nest.ofmap_h) *
                  nest.ofmap_w);
}

void RowStationaryStaging::stage_psums(const RowStationaryStep& step, GlbFetch& fetch) {
  const BlockCounts& b = schedule_.blocks();
  const StepBlocks& at = step.blocks;
  const u64 key = as_count(((at.group * b.images + at.image) * b.filters + at.filter) * b.ofmap_rows + at.ofmap_row);
  const u64 words = psum_words(key);
  if (!glb_.psums.touch(key)) {
    if (!step.first_accumulation) fetch.psum_spill_read_words = words;  // spilled earlier: read it back
    const auto evicted = glb_.psums.admit(key);
    if (evicted && !evicted->complete) fetch.psum_spill_write_words = psum_words(evicted->key);
  }
  if (step.last_accumulation) {
    glb_.psums.mark_complete(key);
    fetch.ofmap_dram_words = words;
  }
}

std::vector<std::int16_t> filter_tile(const LoopNest& nest, const LayerTensors& tensors,
                                      const RowStationaryStep& step) {
  std::vector<std::int16_t> tile;
  tile.reserve(static_cast<std::size_t>(step.groups.size() * step.filters.size() * step.channels.size() *
                                        step.filter_rows.size() * step.filter_cols.size()));
  for (std::int64_t g = step.groups.begin; g < step.groups.end; ++g)
    for (std::int64_t m = step.filters.begin; m < step.filters.end; ++m)
      for (std::int64_t c = step.channels.begin; c < step.channels.end; ++c)
        for (std::int64_t r = step.filter_rows.begin; r < step.filter_rows.end; ++r)
          for (std::int64_t s = step.filter_cols.begin; s < step.filter_cols.end; ++s)
            tile.push_back(tensors.weights[weight_index(nest, g, m, c, r, s)]);
  return tile;
}

std::vector<std::int16_t> ifmap_tile(const LoopNest& nest, const LayerTensors& tensors, const RowStationaryStep& step) {
  const StepInput input = step_input(nest, step);
  std::vector<std::int16_t> tile;
  tile.reserve(static_cast<std::size_t>(step.groups.size() * step.images.size() * step.channels.size() *
                                        input.rows.size() * input.cols.size()));
  for (std::int64_t g = step.groups.begin; g < step.groups.end; ++g)
    for (std::int64_t n = step.images.begin; n < step.images.end; ++n)
      for (std::int64_t c = step.channels.begin; c < step.channels.end; ++c)
        for (std::int64_t row = input.rows.begin; row < input.rows.end; ++row)
          for (std::int64_t col = input.cols.begin; col < input.cols.end; ++col) {
            const std::int64_t y = row - nest.pad_top, x = col - nest.pad_left;
            const bool inside = y >= 0 && y < nest.input_h && x >= 0 && x < nest.input_w;
            tile.push_back(inside ? tensors.ifmap[ifmap_index(nest, n, g, c, y, x)] : padding_value(nest.kind));
          }
  return tile;
}

std::uint64_t stored_nonzeros(const LoopNest& nest, const LayerTensors& tensors, const RowStationaryStep& step,
                              IndexRange padded_rows) {
  std::uint64_t nonzeros = 0;
  const std::int64_t first = std::max<std::int64_t>(padded_rows.begin - nest.pad_top, 0);
  const std::int64_t last = std::min(padded_rows.end - nest.pad_top, nest.input_h);
  const std::int64_t width = std::min(nest.input_w, nest.ifmap_w() - nest.pad_left);
  for (std::int64_t g = step.groups.begin; g < step.groups.end; ++g)
    for (std::int64_t n = step.images.begin; n < step.images.end; ++n)
      for (std::int64_t c = step.channels.begin; c < step.channels.end; ++c)
        for (std::int64_t y = first; y < last; ++y)
          for (std::int64_t x = 0; x < width; ++x) nonzeros += tensors.ifmap[ifmap_index(nest, n, g, c, y, x)] != 0;
  return nonzeros;
}

}  // namespace ergon
