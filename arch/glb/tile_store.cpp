#include "arch/glb/tile_store.hpp"

namespace ergon {

void TileStore::reset(std::int64_t slots) {
  slots_ = slots;
  order_.clear();
  where_.clear();
}

bool TileStore::touch(std::uint64_t key) {
  const auto found = where_.find(key);
  if (found == where_.end()) return false;
  order_.splice(order_.begin(), order_, found->second);
  return true;
}

std::optional<TileStore::Evicted> TileStore::admit(std::uint64_t key) {
  std::optional<Evicted> evicted;
  if (static_cast<std::int64_t>(order_.size()) >= slots_ && !order_.empty()) {
    evicted = Evicted{order_.back().key, order_.back().complete};
    where_.erase(order_.back().key);
    order_.pop_back();
  }
  order_.push_front(Entry{key, false});
  where_[key] = order_.begin();
  return evicted;
}

void TileStore::mark_complete(std::uint64_t key) {
  const auto found = where_.find(key);
  if (found != where_.end()) found->second->complete = true;
}

}  // namespace ergon
