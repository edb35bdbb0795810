#include "dataflows/systolic/buffer_replay.hpp"

#include <limits>
#include <queue>
#include <utility>

namespace ergon {
namespace {

constexpr std::size_t kNever = std::numeric_limits<std::size_t>::max();

// For every use, the fold of the same block's next use (kNever after its last).
std::vector<std::size_t> next_use_folds(const FoldBlockUses& uses) {
  std::vector<std::size_t> next(uses.use_count(), kNever);
  std::vector<std::size_t> seen(uses.block_count(), kNever);
  for (std::size_t fold = uses.fold_count(); fold-- > 0;) {
    for (std::size_t i = uses.begin(fold); i < uses.end(fold); ++i) {
      next[i] = seen[uses.use(i).block];
      seen[uses.use(i).block] = fold;
    }
  }
  return next;
}

// Every block in the buffer at once: each is filled at its first use (partial sums: never) and stays.
bool fill_once_if_all_fit(const FoldBlockUses& uses, std::uint64_t capacity_values, bool accumulating,
                          BufferTraffic& traffic) {
  std::vector<bool> seen(uses.block_count(), false);
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < uses.use_count(); ++i) {
    const BufferBlockUse& use = uses.use(i);
    if (!seen[use.block]) total += use.values, seen[use.block] = true;
    if (total > capacity_values) return false;
  }
  if (accumulating) return true;
  seen.assign(uses.block_count(), false);
  for (std::size_t fold = 0; fold < uses.fold_count(); ++fold) {
    for (std::size_t i = uses.begin(fold); i < uses.end(fold); ++i) {
      const BufferBlockUse& use = uses.use(i);
      if (!seen[use.block]) traffic.filled[fold] += use.values, seen[use.block] = true;
    }
  }
  return true;
}

}  // namespace

BufferTraffic replay_buffer(const FoldBlockUses& uses, std::uint64_t capacity_values, bool accumulating) {
  const std::size_t folds = uses.fold_count();
  BufferTraffic traffic{std::vector<std::uint64_t>(folds, 0), std::vector<std::uint64_t>(folds, 0)};
  if (fill_once_if_all_fit(uses, capacity_values, accumulating, traffic)) return traffic;
  const std::vector<std::size_t> next = next_use_folds(uses);
  std::vector<std::size_t> last_use(uses.block_count(), kNever);    // fold of the latest use so far
  std::vector<std::size_t> next_after(uses.block_count(), kNever);  // its next use after that
  std::vector<std::uint64_t> held(uses.block_count(), 0);           // values on chip (0: not held)
  std::vector<bool> started(uses.block_count(), false);             // a partial-sum block exists
  // Held blocks that may leave (not used by the fold computing or loading), furthest next use first;
  // entries that have since been used again are skipped when they come up.
  std::priority_queue<std::pair<std::size_t, std::uint32_t>> evictable;
  std::uint64_t occupied = 0;
  for (std::size_t fold = 0; fold < folds; ++fold) {
    if (fold >= 2) {  // the blocks fold - 2 used last are now free to leave
      for (std::size_t i = uses.begin(fold - 2); i < uses.end(fold - 2); ++i) {
        const std::uint32_t block = uses.use(i).block;
        if (last_use[block] == fold - 2 && held[block] > 0) evictable.emplace(next_after[block], block);
      }
    }
    for (std::size_t i = uses.begin(fold); i < uses.end(fold); ++i) {
      const BufferBlockUse& use = uses.use(i);
      const std::uint32_t block = use.block;
      last_use[block] = fold;
      next_after[block] = next[i];
      if (held[block] > 0) continue;
      if (!accumulating || started[block]) traffic.filled[fold] += use.values;
      started[block] = true;
      while (occupied + use.values > capacity_values && !evictable.empty()) {
        const auto [key, victim] = evictable.top();
        evictable.pop();
        // Gone, in use again, or queued again since with a later next use.
        if (held[victim] == 0 || last_use[victim] + 1 >= fold || key != next_after[victim]) continue;
        occupied -= held[victim];
        if (accumulating && next_after[victim] != kNever) traffic.spilled[fold] += held[victim];
        held[victim] = 0;
      }
      if (occupied + use.values <= capacity_values) {
        held[block] = use.values;
        occupied += use.values;
      } else if (accumulating && next[i] != kNever) {
        traffic.spilled[fold] += use.values;  // streamed through: its partial sums go straight back out
      }
    }
  }
  return traffic;
}

}  // namespace ergon
