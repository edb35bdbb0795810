#pragma once
// The tiles of one tensor a GLB region holds: a fixed number of slots, each holding one tile, the least
// recently used tile evicted first when a new one arrives. Tiles are named by a key (their block
// indices); a tile may be marked complete (finished psums, already written back), which makes its eviction
// free.
#include <cstdint>
#include <list>
#include <optional>
#include <unordered_map>

namespace ergon {

class TileStore {
 public:
  struct Evicted {
    std::uint64_t key = 0;
    bool complete = false;
  };

  void reset(std::int64_t slots);
  std::int64_t slots() const { return slots_; }
  std::size_t size() const { return order_.size(); }
  bool contains(std::uint64_t key) const { return where_.count(key) > 0; }
  // True when the tile is held; it becomes the most recently used.
  bool touch(std::uint64_t key);
  // Stores the tile as the most recently used, evicting the least recently used one when all slots are
  // taken. The tile must not be held already.
  std::optional<Evicted> admit(std::uint64_t key);
  void mark_complete(std::uint64_t key);

 private:
  struct Entry {
    std::uint64_t key = 0;
    bool complete = false;
  };
  std::int64_t slots_ = 0;
  std::list<Entry> order_;  // most recently used first
  std::unordered_map<std::uint64_t, std::list<Entry>::iterator> where_;
};

// What the GLB holds of the running layer, per tensor (filters in the filter store when there is one).
struct GlbContents {
  TileStore ifmaps;
  TileStore psums;
  TileStore filters;
};

}  // namespace ergon
