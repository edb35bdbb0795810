#pragma once
// The row-stationary mapper: builds the mapspace a layer allows on the hardware (seed 003 Sec. IV and
// Table II; Eyeriss JSSC 2017): at the array level the ofmap rows per set e (a set wider than the array
// folded onto more rows), channels q and filters p per PE within the RF sizes, channel sets r and filter
// sets t, groups side by side, images n; at the GLB level the loop order over image, filter, ofmap-row and
// channel blocks, the tiles of each tensor the GLB keeps (several filter blocks' psums: Eyeriss's m),
// whether psums may spill to DRAM, and single or double buffering. It prunes the array-level candidates
// (keeping those with the fewest compute cycles, and the best of every set width), searches the rest
// against the objective with the closed-form cost model, replays the best 8 step by step
// (row_stationary_replay.hpp) and returns the best of those; objectives are lexicographic (ranks_before).
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "dataflows/mapping_error.hpp"
#include "dataflows/row_stationary/row_stationary_cost.hpp"
#include "dataflows/row_stationary/row_stationary_search_memo.hpp"

namespace ergon {

struct MapperContext {
  ArrayResources hw;
  ArrayTiming timing;
  AccessPrices energies;
  DramEncoding encoding;
  MapperObjective objective = MapperObjective::kEnergy;
};

// Parameters a user pins (a mapping file); the others are searched.
struct MappingConstraints {
  std::optional<std::int64_t> ofmap_rows, channels_per_pe, filters_per_pe, channel_sets, filter_sets, images,
      group_sets;
  std::optional<LoopOrder> order;
  std::optional<std::int64_t> ifmap_slots, psum_slots, filter_slots;
  std::optional<bool> double_buffered;
  std::optional<bool> psum_spill;  // false: no mapping that spills psums to DRAM

  bool none() const {
    return !ofmap_rows && !channels_per_pe && !filters_per_pe && !channel_sets && !filter_sets && !images &&
           !group_sets && !order && !ifmap_slots && !psum_slots && !filter_slots && !double_buffered && !psum_spill;
  }
};

struct MappingChoice {
  RowStationaryMapping mapping;
  MappingCost cost;
  std::uint64_t candidates = 0;  // complete mappings evaluated (fitting the hardware and the constraints)
  // The spread of the candidates' objective under the closed form, which ranks them (`cost` holds the chosen
  // one's replayed estimate).
  double ranked_objective = 0;  // the chosen one's
  double worst_objective = 0;
  double median_objective = 0;
};

// Throws MappingError when no mapping fits (naming what does not) or the constraints exclude them all.
// `memo`: figures of earlier searches to reuse and extend (row_stationary_search_memo.hpp); the choice is the
// same with or without it. A search with constraints does not use it.
MappingChoice map_row_stationary(const LoopNest& nest, const MapperContext& context,
                                 const MappingConstraints& constraints = {}, RowStationarySearchMemo* memo = nullptr);

}  // namespace ergon
