#include "dataflows/row_stationary/row_stationary_schedule.hpp"

#include <algorithm>

namespace ergon {
namespace {

IndexRange block_range(std::int64_t block, std::int64_t tile, std::int64_t extent) {
  return {block * tile, std::min(extent, (block + 1) * tile)};
}

}  // namespace

std::uint64_t RowStationaryStep::operations(std::int64_t ofmap_w) const {
  std::uint64_t total = static_cast<std::uint64_t>(ofmap_w);
  for (const IndexRange& range : {groups, images, filters, channels, ofmap_rows, filter_rows, filter_cols}) {
    total *= static_cast<std::uint64_t>(range.size());
  }
  return total;
}

RowStationarySchedule::RowStationarySchedule(LoopNest nest, RowStationaryMapping mapping)
    : nest_(nest), mapping_(mapping), blocks_(block_counts(nest, mapping.tiling)) {}

RowStationaryStep RowStationarySchedule::step_at(const StepBlocks& b) const {
  const RowStationaryTiling& t = mapping_.tiling;
  RowStationaryStep step;
  step.groups = block_range(b.group, t.group_sets, nest_.groups);
  step.images = block_range(b.image, t.images, nest_.images);
  step.filters = block_range(b.filter, t.filters_per_step(), nest_.filters);
  step.channels = block_range(b.channel, t.channels_per_step(), nest_.channels);
  step.ofmap_rows = block_range(b.ofmap_row, t.ofmap_rows, nest_.ofmap_h);
  step.filter_rows = block_range(b.filter_row, t.filter_rows, nest_.filter_h);
  step.filter_cols = block_range(b.filter_col, t.filter_cols, nest_.filter_w);
  step.blocks = b;
  step.first_accumulation = b.channel == 0 && b.filter_row == 0 && b.filter_col == 0;
  step.last_accumulation = b.channel == blocks_.channels - 1 && b.filter_row == blocks_.filter_rows - 1 &&
                           b.filter_col == blocks_.filter_cols - 1;
  return step;
}

}  // namespace ergon
