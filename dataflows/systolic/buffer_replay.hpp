#pragma once
// One on-chip buffer over a layer's folds, managed as a compiler that knows the whole schedule manages a
// scratchpad: a block a fold needs and the buffer does not hold is filled from DRAM; when space is needed,
// the block evicted is the one needed furthest ahead (Belady's rule, never a block of the fold computing or
// of the fold loading, as the buffer is double-buffered); a block that cannot be kept even so streams
// through. Partial-sum blocks (`accumulating`) are created by their first use, not filled; one evicted
// before its last use is spilled to DRAM and filled again at its next use; after its last use it leaves as
// a finished output and is not counted here.
#include <cstdint>
#include <vector>

namespace ergon {

struct BufferBlockUse {
  std::uint32_t block = 0;  // a dense index, below FoldBlockUses::block_count
  std::uint64_t values = 0;
};

// The blocks each fold uses, in fold order (a block at most once per fold).
class FoldBlockUses {
 public:
  explicit FoldBlockUses(std::uint32_t block_count) : block_count_(block_count) { fold_begin_.push_back(0); }
  void add(std::uint32_t block, std::uint64_t values) { uses_.push_back({block, values}); }
  void end_fold() { fold_begin_.push_back(uses_.size()); }

  std::uint32_t block_count() const { return block_count_; }
  std::size_t fold_count() const { return fold_begin_.size() - 1; }
  std::size_t use_count() const { return uses_.size(); }
  std::size_t begin(std::size_t fold) const { return fold_begin_[fold]; }
  std::size_t end(std::size_t fold) const { return fold_begin_[fold + 1]; }
  const BufferBlockUse& use(std::size_t index) const { return uses_[index]; }

 private:
  std::uint32_t block_count_;
  std::vector<BufferBlockUse> uses_;
  std::vector<std::size_t> fold_begin_;
};

struct BufferTraffic {  // values per fold
  std::vector<std::uint64_t> filled;
  std::vector<std::uint64_t> spilled;  // accumulating blocks only
};

BufferTraffic replay_buffer(const FoldBlockUses& uses, std::uint64_t capacity_values, bool accumulating);

}  // namespace ergon
