#pragma once
// The steps of a row-stationary mapping in execution order: groups outermost, then the mapping's loop
// order over image, filter, ofmap-row and channel blocks, then the filter-row and filter-column folds.
// Steps are generated on demand, never stored.
#include <cstdint>

#include "dataflows/row_stationary/row_stationary_mapping.hpp"

namespace ergon {

// Block indices of a step along each dimension (tile numbers, not element positions).
struct StepBlocks {
  std::int64_t group = 0, image = 0, filter = 0, channel = 0, ofmap_row = 0, filter_row = 0, filter_col = 0;
};

struct RowStationaryStep {
  IndexRange groups, images, filters, channels, ofmap_rows, filter_rows, filter_cols;
  StepBlocks blocks;
  bool first_accumulation = false;  // psums of this ofmap tile start from zero
  bool last_accumulation = false;   // psums complete after this step: the ofmap tile is written back
  std::uint64_t operations(std::int64_t ofmap_w) const;
};

class RowStationarySchedule {
 public:
  RowStationarySchedule(LoopNest nest, RowStationaryMapping mapping);
  const LoopNest& nest() const { return nest_; }
  const RowStationaryMapping& mapping() const { return mapping_; }
  const RowStationaryTiling& tiling() const { return mapping_.tiling; }
  const BlockCounts& blocks() const { return blocks_; }
  std::uint64_t step_count() const { return blocks_.steps(); }
  RowStationaryStep step_at(const StepBlocks& blocks) const;

  template <typename Visitor>
  void for_each_step(Visitor&& visit) const;

 private:
  LoopNest nest_;
  RowStationaryMapping mapping_;
  BlockCounts blocks_;
};

template <typename Visitor>
void RowStationarySchedule::for_each_step(Visitor&& visit) const {
  const LoopOrder& order = mapping_.order;
  std::int64_t bounds[4];
  for (int level = 0; level < 4; ++level) bounds[level] = blocks_.of(order[static_cast<std::size_t>(level)]);
  StepBlocks at;
  for (at.group = 0; at.group < blocks_.groups; ++at.group) {
    std::int64_t index[4] = {0, 0, 0, 0};
    for (bool more = true; more;) {
      for (int level = 0; level < 4; ++level) {
        const std::int64_t value = index[level];
        switch (order[static_cast<std::size_t>(level)]) {
          case TemporalDim::kImages: at.image = value; break;
          case TemporalDim::kFilters: at.filter = value; break;
          case TemporalDim::kOfmapRows: at.ofmap_row = value; break;
          case TemporalDim::kChannels: at.channel = value; break;
        }
      }
      for (at.filter_row = 0; at.filter_row < blocks_.filter_rows; ++at.filter_row) {
        for (at.filter_col = 0; at.filter_col < blocks_.filter_cols; ++at.filter_col) visit(step_at(at));
      }
      int level = 3;  // the next combination, innermost loop first
      while (level >= 0 && ++index[level] == bounds[level]) index[level--] = 0;
      more = level >= 0;
    }
  }
}

}  // namespace ergon
