#pragma once
// Small integer helpers the tiling arithmetic shares.
#include <algorithm>
#include <cstdint>

namespace ergon {

// Blocks of size `b` needed to cover `a` (a >= 0, b > 0).
inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

// A non-negative size or count as an unsigned counter.
inline std::uint64_t as_count(std::int64_t value) {
  return static_cast<std::uint64_t>(value);
}

// Length of [begin, end) within [low, high).
inline std::int64_t overlap_length(std::int64_t begin, std::int64_t end, std::int64_t low, std::int64_t high) {
  return std::max<std::int64_t>(0, std::min(end, high) - std::max(begin, low));
}

}  // namespace ergon
