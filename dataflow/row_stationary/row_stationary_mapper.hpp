#pragma once
// The row-stationary dataflow (Chen et al., Eyeriss, ISCA 2016 / JSSC 2017; NeuPart Sec. III): a PE
// keeps one filter row stationary and slides it over one ifmap row; a set of R x e PEs computes e
// ofmap rows, psums flowing up each column. Sets are stacked vertically for more channels (their
// psums summed down the column) or more filters. The mapper picks integer tile sizes that fit the
// register files and the GLB, and enumerates passes with real partial tiles at the edges.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "dataflow/loop_nest.hpp"

namespace ergon {

struct ArrayResources {
  std::int64_t pe_rows = 12;
  std::int64_t pe_cols = 14;
  std::int64_t filter_rf_words = 224;
  std::int64_t ifmap_rf_words = 12;
  std::int64_t psum_rf_words = 24;
  std::int64_t glb_words = 51200;  // ifmap + psum capacity
};

// Tile sizes: upper bounds; the passes at the edges of a dimension are smaller.
struct RowStationaryTiling {
  std::int64_t filter_rows = 1;         // PE rows of one set: filter rows per fold
  std::int64_t filter_cols = 1;         // filter columns per fold, held in the RFs
  std::int64_t ofmap_rows = 1;          // PE columns of one set (e)
  std::int64_t channels_per_pe = 1;     // q, interleaved in each PE's RFs
  std::int64_t filters_per_pe = 1;      // p, one psum each
  std::int64_t channel_sets = 1;        // r: sets stacked for more channels
  std::int64_t filter_sets = 1;         // t: sets for more filters, stacked in spare rows and replicated
  std::int64_t filter_set_columns = 1;  //    side by side in spare columns (when e < PE columns)
  std::int64_t group_sets = 1;          // groups mapped side by side (depthwise, pooling: one channel each)
  std::int64_t group_set_columns = 1;   //    of which next to each other horizontally
  std::int64_t images = 1;              // n: images per pass

  std::int64_t channels_per_pass() const { return channels_per_pe * channel_sets; }
  std::int64_t filters_per_pass() const { return filters_per_pe * filter_sets; }
  // One group's PEs, and the whole pass's.
  std::int64_t group_rows() const {
    return filter_rows * channel_sets * ((filter_sets + filter_set_columns - 1) / filter_set_columns);
  }
  std::int64_t group_cols() const { return ofmap_rows * std::min(filter_sets, filter_set_columns); }
  std::int64_t pe_rows_used() const {
    return group_rows() * ((group_sets + group_set_columns - 1) / group_set_columns);
  }
  std::int64_t pe_cols_used() const { return group_cols() * std::min(group_sets, group_set_columns); }
};

struct IndexRange {
  std::int64_t begin = 0;
  std::int64_t end = 0;
  std::int64_t size() const { return end - begin; }
};

struct RowStationaryPass {
  IndexRange groups, images, filters, channels, ofmap_rows, filter_rows, filter_cols;
  bool first_accumulation = false;  // psums of this ofmap tile start from zero
  bool last_accumulation = false;   // psums complete after this pass: the ofmap tile is written back
  std::uint64_t operations(std::int64_t ofmap_w) const;
};

// GLB words a pass needs: its ifmap rows (all images, groups and channels) twice, as the next pass's are
// staged meanwhile (double buffering), plus its psums.
std::int64_t glb_tile_words(const LoopNest& nest, const RowStationaryPass& pass);

class MappingError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class RowStationarySchedule {
 public:
  RowStationarySchedule(LoopNest nest, RowStationaryTiling tiling);
  const LoopNest& nest() const { return nest_; }
  const RowStationaryTiling& tiling() const { return tiling_; }
  std::uint64_t pass_count() const;

  // Visits the passes in execution order (outer to inner: groups, images, filters, ofmap rows, then the
  // accumulation loops channels, filter rows, filter columns), without storing them.
  template <typename Visitor>
  void for_each_pass(Visitor&& visit) const;

 private:
  LoopNest nest_;
  RowStationaryTiling tiling_;
};

// Throws MappingError when even the smallest tile does not fit.
RowStationarySchedule map_row_stationary(const LoopNest& nest, const ArrayResources& resources);

template <typename Visitor>
void RowStationarySchedule::for_each_pass(Visitor&& visit) const {
  const auto blocks = [](std::int64_t extent, std::int64_t tile, auto&& body) {
    for (std::int64_t begin = 0; begin < extent; begin += tile) body(IndexRange{begin, std::min(extent, begin + tile)});
  };
  const RowStationaryTiling& t = tiling_;
  const LoopNest& n = nest_;
  blocks(n.groups, t.group_sets, [&](IndexRange groups) {
    blocks(n.images, t.images, [&](IndexRange images) {
      blocks(n.filters, t.filters_per_pass(), [&](IndexRange filters) {
        blocks(n.ofmap_h, t.ofmap_rows, [&](IndexRange ofmap_rows) {
          blocks(n.channels, t.channels_per_pass(), [&](IndexRange channels) {
            blocks(n.filter_h, t.filter_rows, [&](IndexRange filter_rows) {
              blocks(n.filter_w, t.filter_cols, [&](IndexRange filter_cols) {
                RowStationaryPass pass{groups, images, filters, channels, ofmap_rows, filter_rows, filter_cols};
                pass.first_accumulation = channels.begin == 0 && filter_rows.begin == 0 && filter_cols.begin == 0;
                pass.last_accumulation =
                    channels.end == n.channels && filter_rows.end == n.filter_h && filter_cols.end == n.filter_w;
                visit(pass);
              });
            });
          });
        });
      });
    });
  });
}

}  // namespace ergon
