#pragma once
// Walks a row-stationary schedule's steps in execution order and decides what each one needs from DRAM,
// from what the GLB holds (its GlbContents, updated as steps are staged) and which filters the PEs hold:
// - an ifmap tile is fetched unless held; when the tile of the previous ofmap-row block (same images and
//   channels) is still held, only the rows the two do not share are fetched;
// - a psum tile evicted before its accumulation completed is written to DRAM and read back when needed;
//   complete psum tiles are written back as the ofmap;
// - filters are sent to the PEs when the PEs do not hold them; from DRAM, unless the filter store holds
//   the tile (with no filter slots, filters stream from DRAM every time).
#include <cstdint>
#include <optional>
#include <vector>

#include "arch/glb/tile_store.hpp"
#include "dataflows/layer_tensors.hpp"
#include "dataflows/row_stationary/step_traffic.hpp"

namespace ergon {

class RowStationaryStaging {
 public:
  // Resets `glb` to the mapping's slots. `ifmap_density`: expected non-zero share of the stored ifmap
  // (non-zero MACs are rounded cumulatively, so the layer's total is the rounded expected total).
  RowStationaryStaging(const RowStationarySchedule& schedule, GlbContents& glb, double ifmap_density);

  // The next step in execution order, with its DRAM fetches.
  StepTraffic stage(const RowStationaryStep& step);
  // The padded ifmap rows the last staged step fetched (empty when it fetched none).
  const IndexRange& fetched_ifmap_rows() const { return fetched_ifmap_rows_; }

 private:
  struct FilterKey {
    std::uint64_t tile = 0;
    std::int64_t filter_row = 0, filter_col = 0;
  };
  // `tile`: the filter tile's key in the filter store.
  void stage_filters(const RowStationaryStep& step, std::uint64_t tile, const StepTraffic& traffic, GlbFetch& fetch);
  void stage_ifmap(const RowStationaryStep& step, GlbFetch& fetch);
  void stage_psums(const RowStationaryStep& step, GlbFetch& fetch);
  std::uint64_t psum_words(std::uint64_t key) const;

  const RowStationarySchedule& schedule_;
  GlbContents& glb_;
  double density_;
  std::optional<FilterKey> filters_in_pes_;
  std::uint64_t valid_macs_so_far_ = 0;
  std::uint64_t nonzero_macs_so_far_ = 0;
  IndexRange fetched_ifmap_rows_;
};

// The tiles a row-stationary step reads, as the loader stages them in the GLB: filters [g][m][c][r][s]
// and the ifmap [g][n][c][input_rows][input_cols] with the padding materialised.
std::vector<std::int16_t> filter_tile(const LoopNest& nest, const LayerTensors& tensors, const RowStationaryStep& step);
std::vector<std::int16_t> ifmap_tile(const LoopNest& nest, const LayerTensors& tensors, const RowStationaryStep& step);
// Non-zero stored (non-padding) values of the step's images and channels in the padded input rows
// `padded_rows`, over the whole width: what a DRAM fetch of those rows carries.
std::uint64_t stored_nonzeros(const LoopNest& nest, const LayerTensors& tensors, const RowStationaryStep& step,
                              IndexRange padded_rows);

}  // namespace ergon
