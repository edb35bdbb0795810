#pragma once
// A row-stationary mapping (Chen et al., Eyeriss, ISCA 2016 / JSSC 2017; NeuPart/CNNergy Sec. IV, Table II):
// what the PE array computes in one step (the tiling), in which order the steps walk the layer (the loop
// order over images, filter blocks, ofmap-row blocks and channel blocks), how many tiles of each tensor the
// global buffer keeps (its slots), and whether the next step's data is staged while a step computes.
//
// The step is the array-level tile. A PE keeps one filter row stationary and slides it over one ifmap row;
// a set of filter_rows x e PEs computes e ofmap rows (a set wider than the array is folded onto further
// rows). q channels and p filters share each PE's register files; r sets stacked vertically take more
// channels (their psums summed down the columns), t sets more filters; groups sit side by side.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "dataflows/loop_nest.hpp"

namespace ergon {

// What the mapper may use.
struct ArrayResources {
  std::int64_t pe_rows = 12;
  std::int64_t pe_cols = 14;
  std::int64_t filter_rf_words = 224;
  std::int64_t ifmap_rf_words = 12;
  std::int64_t psum_rf_words = 24;
  std::int64_t glb_words = 51200;          // ifmaps and psums (and filters without a filter store)
  std::int64_t filter_store_words = 0;     // a separate filter store; 0: filters share the GLB
  bool filter_rf_double_buffered = false;  // the filter RF holds the next step's filters too
};

// Tile sizes of one step: upper bounds; the steps at the edges of a dimension are smaller.
struct RowStationaryTiling {
  std::int64_t filter_rows = 1;         // filter rows per fold (PE rows of one set)
  std::int64_t filter_cols = 1;         // filter columns per fold, held in the RFs
  std::int64_t ofmap_rows = 1;          // e: ofmap rows of one set (beyond the PE columns: folded onto more rows)
  std::int64_t channels_per_pe = 1;     // q
  std::int64_t filters_per_pe = 1;      // p, one psum each
  std::int64_t channel_sets = 1;        // r: sets stacked for more channels
  std::int64_t filter_sets = 1;         // t: sets for more filters, stacked in spare rows and
  std::int64_t filter_set_columns = 1;  //    side by side in spare columns (when e < PE columns)
  std::int64_t group_sets = 1;          // groups mapped side by side (depthwise, pooling: one channel each)
  std::int64_t group_set_columns = 1;   //    of which next to each other horizontally
  std::int64_t images = 1;              // n: images per step

  std::int64_t channels_per_step() const { return channels_per_pe * channel_sets; }
  std::int64_t filters_per_step() const { return filters_per_pe * filter_sets; }
  std::int64_t set_cols(std::int64_t pe_cols) const { return std::min(ofmap_rows, pe_cols); }
  std::int64_t set_folds(std::int64_t pe_cols) const { return (ofmap_rows + pe_cols - 1) / pe_cols; }
  // PE rows and columns one group's sets occupy, and the whole step's.
  std::int64_t group_rows(std::int64_t pe_cols) const;
  std::int64_t group_cols(std::int64_t pe_cols) const;
  std::int64_t pe_rows_used(std::int64_t pe_cols) const;
  std::int64_t pe_cols_used(std::int64_t pe_cols) const;
};

// The temporal loops over step tiles, outside the array. Groups are always outermost and filter-row and
// filter-column folds innermost (they accumulate into the same psums).
enum class TemporalDim { kImages, kFilters, kOfmapRows, kChannels };
using LoopOrder = std::array<TemporalDim, 4>;  // outer to inner

const std::vector<LoopOrder>& all_loop_orders();      // the 24 permutations
const char* temporal_dim_name(TemporalDim dim);       // "images", "filters", "ofmap_rows", "channels"
std::string loop_order_name(const LoopOrder& order);  // e.g. "images>filters>ofmap_rows>channels"

// Tiles of each tensor the GLB keeps (least recently used evicted first). A psum tile evicted before its
// accumulation is complete spills to DRAM and is read back when needed. Filters: 0 streams them from DRAM
// through the filter store into the PEs each time the PEs need them.
struct GlbSlots {
  std::int64_t ifmap = 1;
  std::int64_t psum = 1;
  std::int64_t filter = 0;
};

struct RowStationaryMapping {
  RowStationaryTiling tiling;
  LoopOrder order = {TemporalDim::kImages, TemporalDim::kFilters, TemporalDim::kOfmapRows, TemporalDim::kChannels};
  GlbSlots slots;
  bool double_buffered = true;  // the next step's data is fetched while a step computes
};

// Number of tiles (blocks) along each dimension.
struct BlockCounts {
  std::int64_t groups = 1, images = 1, filters = 1, channels = 1, ofmap_rows = 1, filter_rows = 1, filter_cols = 1;
  std::int64_t of(TemporalDim dim) const;
  std::uint64_t steps() const;
};
BlockCounts block_counts(const LoopNest& nest, const RowStationaryTiling& tiling);

// Words of the largest tile of each tensor the GLB holds: an ifmap tile spans all filter rows and columns
// (the folds read parts of it), with its padding materialised; a filter tile all filter rows and columns.
std::int64_t ifmap_tile_words(const LoopNest& nest, const RowStationaryTiling& tiling);
std::int64_t psum_tile_words(const LoopNest& nest, const RowStationaryTiling& tiling);
std::int64_t filter_tile_words(const LoopNest& nest, const RowStationaryTiling& tiling);

// Padded input rows [begin, end) the ifmap tile of ofmap-row block `block` covers.
struct RowSpan {
  std::int64_t begin = 0, end = 0;
};
RowSpan ifmap_tile_rows(const LoopNest& nest, const RowStationaryTiling& tiling, std::int64_t block);

// Empty when the mapping fits the array, RFs, GLB and filter store; otherwise what does not fit.
// mapping_fits is the same test without the explanation (the mapper's hot path).
bool mapping_fits(const LoopNest& nest, const ArrayResources& hw, const RowStationaryMapping& mapping);
// The same test in two parts, for searches that vary the buffers' capacity only: whether the mapping fits
// the array, its RFs and its slot rules, and the words it keeps in the GLB and the filter store.
struct MappingFootprint {
  std::int64_t glb_words = 0;     // ifmap and psum slots
  std::int64_t filter_words = 0;  // filter slots: in the filter store, or in the GLB without one
};
bool fits_array(const LoopNest& nest, const ArrayResources& hw, const RowStationaryMapping& mapping);
MappingFootprint mapping_footprint(const LoopNest& nest, const RowStationaryMapping& mapping);
std::string mapping_violation(const LoopNest& nest, const ArrayResources& hw, const RowStationaryMapping& mapping);

}  // namespace ergon
