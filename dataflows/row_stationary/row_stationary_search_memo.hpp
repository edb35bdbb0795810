#pragma once
// What the row-stationary search works out that neither the buffers' capacity (glb.size_kib,
// glb.filter_size_kib) nor the access prices change, kept so that a later search of the same layer shape on
// the same array, timing and data encoding (a sweep's next point) only tests the fits and prices again:
// - per tiling: whether it fits the array and its RFs, its GLB words with one ifmap and one psum slot, and its
//   order-independent counts and cycles (what the first stage scores it by, before pricing);
// - the tilings the first stage visits, for a range of GLB capacities (FirstStageVisits);
// - per replayed mapping: its replayed cycles.
// The second stage's candidates are not kept: thousands per tiling, they would cost hundreds of MiB on a
// network of many shapes.
// A search with pinned parameters keeps its own memo (the pins change what the search generates).
// tests/dataflows/row_stationary/row_stationary_mapper_test.cpp holds a search with a memo to one without.
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/action_catalogue.hpp"
#include "dataflows/row_stationary/row_stationary_cost.hpp"

namespace ergon {

struct TilingFigures {
  RowStationaryTiling tiling;
  bool fits_array = false;     // with one ifmap and one psum slot, no filter slot, single-buffered
  std::int64_t glb_words = 0;  // those slots' words (no filter words: whether it fits depends on the GLB alone)
  ActionCounts on_chip;        // order-independent counts (TilingAnalysis::base)
  double cycles_without_reuse = 0;
};

// The tilings the first stage visits and finds fitting, in order, for every GLB capacity from min_glb_words
// to max_glb_words: the enumeration's pruning reads only whether a tiling fits, so it visits the same tilings
// for every capacity between the largest footprint that fitted and the smallest that did not.
struct FirstStageVisits {
  std::int64_t min_glb_words = 0;
  std::int64_t max_glb_words = 0;
  std::vector<std::uint32_t> fitting;  // indices into ShapeMemo::figures()
};

// The figures of one layer shape on one array, timing and encoding. A memo that does not keep them (a
// shape's first search, a pinned search) computes each on demand and remembers nothing.
class ShapeMemo {
 public:
  explicit ShapeMemo(bool keep) : keep_(keep) {}
  // The index of the tiling's figures, computed on first use by `compute`.
  template <typename Compute>
  std::uint32_t tiling(const RowStationaryTiling& t, Compute&& compute) {
    if (!keep_) return add(compute());
    const auto [entry, inserted] = tiling_indices_.try_emplace(tiling_key(t), 0);
    if (inserted) entry->second = add(compute());
    return entry->second;
  }
  const TilingFigures& figures(std::uint32_t index) const { return figures_[index]; }
  std::size_t tiling_count() const { return figures_.size(); }
  // The first stage's visits at this GLB capacity, or nullptr when no search has recorded them.
  const FirstStageVisits* first_stage(std::int64_t glb_words) const;
  const FirstStageVisits& record_first_stage(FirstStageVisits visits);
  // The mapping's replayed cycles, computed on first use by `replay`.
  template <typename Replay>
  double replayed_cycles(const RowStationaryMapping& mapping, Replay&& replay) {
    if (!keep_) return replay();
    const auto [entry, inserted] = replayed_.try_emplace(mapping_key(mapping), 0.0);
    if (inserted) entry->second = replay();
    return entry->second;
  }

 private:
  using TilingKey = std::array<std::int64_t, 11>;
  using MappingKey = std::array<std::int64_t, 19>;
  struct Hash {  // FNV-1a over the values
    template <std::size_t N>
    std::size_t operator()(const std::array<std::int64_t, N>& key) const {
      std::uint64_t hash = 1469598103934665603ULL;
      for (const std::int64_t value : key) hash = (hash ^ static_cast<std::uint64_t>(value)) * 1099511628211ULL;
      return static_cast<std::size_t>(hash ^ (hash >> 29));
    }
  };
  static TilingKey tiling_key(const RowStationaryTiling& t);
  static MappingKey mapping_key(const RowStationaryMapping& m);
  std::uint32_t add(TilingFigures figures) {
    figures_.push_back(std::move(figures));
    return static_cast<std::uint32_t>(figures_.size() - 1);
  }
  bool keep_;
  std::vector<TilingFigures> figures_;
  std::unordered_map<TilingKey, std::uint32_t, Hash> tiling_indices_;
  std::map<std::int64_t, FirstStageVisits> first_stages_;  // by min_glb_words; the ranges do not overlap
  std::unordered_map<MappingKey, double, Hash> replayed_;
};

class RowStationarySearchMemo {
 public:
  RowStationarySearchMemo();
  ~RowStationarySearchMemo();
  RowStationarySearchMemo(const RowStationarySearchMemo&) = delete;
  RowStationarySearchMemo& operator=(const RowStationarySearchMemo&) = delete;

  // The memo of this shape on this array (the buffers' capacity apart), timing and encoding; nullptr on the
  // shape's first search (a single run searches each shape once: keeping its figures would only cost time
  // and memory). Past kMaxTilings figures every memo is dropped, so a long-lived process stays bounded.
  ShapeMemo* shape(const LoopNest& nest, const ArrayResources& hw, const ArrayTiming& timing,
                   const DramEncoding& encoding);
  std::size_t shape_count() const;                     // shapes with a memo
  static constexpr std::size_t kMaxTilings = 400'000;  // about 100 MiB

 private:
  struct Shapes;
  std::unique_ptr<Shapes> shapes_;
};

}  // namespace ergon
