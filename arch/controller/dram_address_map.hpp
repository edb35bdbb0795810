#pragma once
// Where each tensor lives in DRAM (docs/dram.md, "Address layout"). From address 0 up, in the workload's
// topological order, each layer gets the regions it needs: its weights, its output tensor (for the whole
// batch) and a scratch region for psums evicted before they completed. Every region starts on a 4 KiB
// boundary. A layer's ifmap is its producers' output regions, read in input order. The loader walks each
// region with its own cursors; the DRAM model maps addresses onto channels, banks and rows.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "network/workload.hpp"

namespace ergon {

struct DramRegion {
  std::uint64_t base = 0;
  std::uint64_t bytes = 0;
};

struct LayerRegions {
  DramRegion filters;
  std::vector<DramRegion> ifmaps;  // the producers' output regions
  DramRegion ofmap;
  DramRegion psum_spill;
};

class DramAddressMap {
 public:
  static constexpr std::uint64_t kAlignmentBytes = 4096;

  // `batch_per_layer[i]`: the batch layer i runs with; `word_bits`: the width tensors are stored at.
  DramAddressMap(const Workload& workload, const std::vector<std::int64_t>& batch_per_layer, int word_bits);

  const LayerRegions& layer(std::size_t index) const { return layers_.at(index); }
  std::uint64_t end_address() const { return next_; }

 private:
  DramRegion allocate(std::uint64_t bytes);

  std::vector<LayerRegions> layers_;
  std::uint64_t next_ = 0;
};

// A walk through one region or a chain of regions: the next `bytes` start where the previous ended and
// wrap to the start at the end (a tensor read again is read from its beginning).
class RegionCursor {
 public:
  // `chain` must not be empty.
  explicit RegionCursor(std::vector<DramRegion> chain) : chain_(std::move(chain)) {}
  // Splits the next `bytes` into addressed pieces of at most `max_piece_bytes`, none crossing a multiple
  // of it; calls visit(address, bytes) for each.
  template <typename Visit>
  void advance(std::uint64_t bytes, std::uint64_t max_piece_bytes, Visit visit);

 private:
  std::vector<DramRegion> chain_;
  std::size_t region_ = 0;
  std::uint64_t offset_ = 0;  // within chain_[region_]
};

template <typename Visit>
void RegionCursor::advance(std::uint64_t bytes, std::uint64_t max_piece_bytes, Visit visit) {
  while (bytes > 0) {
    const DramRegion& region = chain_[region_];
    const std::uint64_t address = region.base + offset_;
    const std::uint64_t to_boundary = max_piece_bytes - address % max_piece_bytes;
    const std::uint64_t piece = std::min({bytes, to_boundary, region.bytes - offset_});
    visit(address, piece);
    bytes -= piece;
    offset_ += piece;
    if (offset_ == region.bytes) {
      offset_ = 0;
      region_ = (region_ + 1) % chain_.size();
    }
  }
}

}  // namespace ergon
