// The scratchpad replay (dataflows/systolic/buffer_replay.hpp): fills, evictions by furthest next use, the
// double-buffered folds that may not be evicted, and partial sums spilled and read back.
#include "dataflows/systolic/buffer_replay.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

namespace ergon {
namespace {

// One block per fold, `values` each.
FoldBlockUses sequence(const std::vector<std::uint32_t>& blocks, std::uint64_t values) {
  std::uint32_t count = 0;
  for (const std::uint32_t block : blocks) count = std::max(count, block + 1);
  FoldBlockUses uses(count);
  for (const std::uint32_t block : blocks) {
    uses.add(block, values);
    uses.end_fold();
  }
  return uses;
}

std::uint64_t sum(const std::vector<std::uint64_t>& values) {
  return std::accumulate(values.begin(), values.end(), std::uint64_t{0});
}

TEST(BufferReplay, ABufferThatHoldsEverythingFillsEachBlockOnce) {
  const FoldBlockUses uses = sequence({0, 1, 2, 0, 1, 2, 0, 1, 2}, 10);
  const BufferTraffic traffic = replay_buffer(uses, 30, false);
  EXPECT_EQ(sum(traffic.filled), 30u);
  EXPECT_EQ(traffic.filled[3], 0u);
  EXPECT_EQ(sum(traffic.spilled), 0u);
}

// A cycle of four blocks through room for three: after the first round, evicting the block needed furthest
// ahead that neither of the last two folds used misses every other fold (least-recently-used would miss
// every time: 12).
TEST(BufferReplay, TheBlockNeededFurthestAheadLeavesFirst) {
  const FoldBlockUses uses = sequence({0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3}, 1);
  const BufferTraffic traffic = replay_buffer(uses, 3, false);
  EXPECT_EQ(traffic.filled, (std::vector<std::uint64_t>{1, 1, 1, 1, 0, 1, 0, 1, 0, 1, 0, 1}));
}

// The fold computing and the fold loading keep their blocks: with room for two, a block used two folds
// ago is the only one that may leave.
TEST(BufferReplay, TheComputingAndLoadingFoldsKeepTheirBlocks) {
  const FoldBlockUses uses = sequence({0, 1, 2, 1}, 1);
  const BufferTraffic traffic = replay_buffer(uses, 2, false);
  EXPECT_EQ(traffic.filled, (std::vector<std::uint64_t>{1, 1, 1, 0}));  // 0 left for 2; 1 stayed
}

// A block larger than the room left streams through and is filled again at its next use.
TEST(BufferReplay, ABlockThatCannotBeKeptStreamsThrough) {
  FoldBlockUses uses(2);
  uses.add(0, 6), uses.add(1, 6), uses.end_fold();
  uses.add(0, 6), uses.add(1, 6), uses.end_fold();
  const BufferTraffic traffic = replay_buffer(uses, 8, false);
  EXPECT_EQ(traffic.filled, (std::vector<std::uint64_t>{12, 6}));
}

// Partial sums: the first use creates a block (nothing to read); one evicted before its last use is
// written out and read back at its next use; after its last use it is a finished output, not a spill.
// With room for two of three rotating blocks, both held by the last two folds, each new one evicts the
// oldest, still to be used: every block spills once and is read back once.
TEST(BufferReplay, PartialSumsSpillAndComeBack) {
  const FoldBlockUses uses = sequence({0, 1, 2, 0, 1, 2}, 5);
  const BufferTraffic traffic = replay_buffer(uses, 10, true);
  EXPECT_EQ(traffic.filled, (std::vector<std::uint64_t>{0, 0, 0, 5, 5, 5}));
  EXPECT_EQ(traffic.spilled, (std::vector<std::uint64_t>{0, 0, 5, 5, 5, 0}));
  const BufferTraffic roomy = replay_buffer(uses, 15, true);
  EXPECT_EQ(sum(roomy.spilled) + sum(roomy.filled), 0u);
}

}  // namespace
}  // namespace ergon
