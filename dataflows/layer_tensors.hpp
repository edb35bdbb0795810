#pragma once
// Real values for cycle-accurate runs: a layer's stored ifmap and weights (16- or 8-bit integers) and
// its ofmap, plus the reference computation every simulated output is checked against.
// Arithmetic: products and sums wrap modulo 2^32 (as a 32-bit psum register does), so any summation
// order gives the same bits. Max pooling ignores padding; average pooling outputs the window sum.
#include <cstdint>
#include <vector>

#include "dataflows/loop_nest.hpp"

namespace ergon {

struct LayerTensors {
  std::vector<std::int16_t> ifmap;    // [N][G*C][input_h][input_w]
  std::vector<std::int16_t> weights;  // [G][M][C][R][S] (empty for pooling)
  std::vector<std::int32_t> ofmap;    // [N][G*M][E][F]
  std::vector<std::int32_t> psums;    // partial sums, indexed like the ofmap (in the GLB or spilled to DRAM)
};

std::size_t ifmap_index(const LoopNest& nest, std::int64_t image, std::int64_t group, std::int64_t channel,
                        std::int64_t y, std::int64_t x);
std::size_t weight_index(const LoopNest& nest, std::int64_t group, std::int64_t filter, std::int64_t channel,
                         std::int64_t r, std::int64_t s);
std::size_t ofmap_index(const LoopNest& nest, std::int64_t image, std::int64_t group, std::int64_t filter,
                        std::int64_t e, std::int64_t f);

// Deterministic pseudo-random values in the widths' ranges (activations word_bits, weights weight_bits); a
// share `ifmap_sparsity` of the ifmap values is zero (and no other value is); weights are non-zero.
LayerTensors synthetic_tensors(const LoopNest& nest, double ifmap_sparsity, int word_bits, int weight_bits,
                               std::uint64_t seed);

// The layer computed directly from the loop nest.
std::vector<std::int32_t> reference_output(const LoopNest& nest, const LayerTensors& tensors);

// How an operation combines into an accumulator: MAC, max or sum (pooling).
inline std::int32_t accumulate(LoopNestKind kind, std::int32_t accumulator, std::int16_t value, std::int16_t weight) {
  switch (kind) {
    case LoopNestKind::kConv:
      return static_cast<std::int32_t>(static_cast<std::uint32_t>(accumulator) +
                                       static_cast<std::uint32_t>(std::int32_t{value} * std::int32_t{weight}));
    case LoopNestKind::kMaxPool: return accumulator > value ? accumulator : value;
    case LoopNestKind::kAvgPool:
      return static_cast<std::int32_t>(static_cast<std::uint32_t>(accumulator) + static_cast<std::uint32_t>(value));
  }
  return accumulator;
}

// Combines two partial results (psums of different channels or filter rows).
inline std::int32_t combine(LoopNestKind kind, std::int32_t a, std::int32_t b) {
  if (kind == LoopNestKind::kMaxPool) return a > b ? a : b;
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}

// The accumulator's starting value, and the value padding contributes.
std::int32_t accumulator_identity(LoopNestKind kind);
std::int16_t padding_value(LoopNestKind kind);

}  // namespace ergon
