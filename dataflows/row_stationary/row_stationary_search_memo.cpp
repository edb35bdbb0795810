#include "dataflows/row_stationary/row_stationary_search_memo.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <map>
#include <set>

namespace ergon {
namespace {

std::int64_t bits_of(double value) {
  std::int64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

// Everything a search reads but the buffers' capacity, the prices and the objective (which it only ranks by).
std::vector<std::int64_t> shape_key(const LoopNest& n, const ArrayResources& hw, const ArrayTiming& timing,
                                    const DramEncoding& encoding) {
  return {static_cast<std::int64_t>(n.kind),
          n.images,
          n.groups,
          n.filters,
          n.channels,
          n.ofmap_h,
          n.ofmap_w,
          n.filter_h,
          n.filter_w,
          n.stride_h,
          n.stride_w,
          n.dilation_h,
          n.dilation_w,
          n.input_h,
          n.input_w,
          n.pad_top,
          n.pad_left,
          hw.pe_rows,
          hw.pe_cols,
          hw.filter_rf_words,
          hw.ifmap_rf_words,
          hw.psum_rf_words,
          hw.filter_rf_double_buffered ? 1 : 0,
          timing.filter_bus_words,
          timing.ifmap_bus_words,
          timing.psum_read_bus_words,
          timing.psum_write_bus_words,
          timing.glb_read_words,
          timing.glb_write_words,
          timing.ifmap_rf_words,
          timing.filter_rf_double_buffered ? 1 : 0,
          bits_of(timing.dram_bytes_per_cycle),
          bits_of(timing.dram_latency_cycles),
          encoding.word_bits,
          encoding.ifmap_raw ? 1 : 0,
          encoding.compressed_activations ? 1 : 0,
          bits_of(encoding.ifmap_density),
          bits_of(encoding.ofmap_density)};
}

}  // namespace

ShapeMemo::TilingKey ShapeMemo::tiling_key(const RowStationaryTiling& t) {
  return {t.filter_rows, t.filter_cols,        t.ofmap_rows, t.channels_per_pe,   t.filters_per_pe, t.channel_sets,
          t.filter_sets, t.filter_set_columns, t.group_sets, t.group_set_columns, t.images};
}

ShapeMemo::MappingKey ShapeMemo::mapping_key(const RowStationaryMapping& m) {
  MappingKey key{};
  const TilingKey tiling = tiling_key(m.tiling);
  std::copy(tiling.begin(), tiling.end(), key.begin());
  std::size_t next = tiling.size();
  for (const TemporalDim dim : m.order) key[next++] = static_cast<std::int64_t>(dim);
  key[next++] = m.slots.ifmap;
  key[next++] = m.slots.psum;
  key[next++] = m.slots.filter;
  key[next] = m.double_buffered ? 1 : 0;
  return key;
}

const FirstStageVisits* ShapeMemo::first_stage(std::int64_t glb_words) const {
  auto next = first_stages_.upper_bound(glb_words);
  if (next == first_stages_.begin()) return nullptr;
  const FirstStageVisits& visits = std::prev(next)->second;
  return glb_words <= visits.max_glb_words ? &visits : nullptr;
}

const FirstStageVisits& ShapeMemo::record_first_stage(FirstStageVisits visits) {
  const std::int64_t key = visits.min_glb_words;
  return first_stages_.insert_or_assign(key, std::move(visits)).first->second;
}

struct RowStationarySearchMemo::Shapes {
  std::set<std::vector<std::int64_t>> searched_once;
  std::map<std::vector<std::int64_t>, ShapeMemo> memos;
};

RowStationarySearchMemo::RowStationarySearchMemo() : shapes_(std::make_unique<Shapes>()) {}
RowStationarySearchMemo::~RowStationarySearchMemo() = default;

ShapeMemo* RowStationarySearchMemo::shape(const LoopNest& nest, const ArrayResources& hw, const ArrayTiming& timing,
                                          const DramEncoding& encoding) {
  std::vector<std::int64_t> key = shape_key(nest, hw, timing, encoding);
  std::size_t tilings = 0;
  for (const auto& [shape, memo] : shapes_->memos) tilings += memo.tiling_count();
  if (tilings > kMaxTilings) shapes_->memos.clear();
  if (shapes_->searched_once.size() > kMaxTilings / 40) shapes_->searched_once.clear();  // of similar size
  const auto found = shapes_->memos.find(key);
  if (found != shapes_->memos.end()) return &found->second;
  if (shapes_->searched_once.insert(key).second) return nullptr;
  return &shapes_->memos.try_emplace(std::move(key), true).first->second;
}

std::size_t RowStationarySearchMemo::shape_count() const {
  return shapes_->memos.size();
}

}  // namespace ergon
