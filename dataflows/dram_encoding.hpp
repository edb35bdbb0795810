#pragma once
// How a layer's tensors are stored in DRAM. Filters (at their own width), partial sums (at the accumulator's)
// and the network's input are raw;
// other activations are run-length coded (Eyeriss, CNNergy): a 64-bit word holds 3 non-zero 16-bit values
// (5 at 8 bit) with their zero-run lengths. A transfer is sent coded only when that is smaller than raw,
// so coding never inflates dense data (the coder's output is checked against the raw size per transfer).
// Padding is never stored.
#include <algorithm>
#include <cmath>
#include <cstdint>

namespace ergon {

struct DramEncoding {
  int word_bits = 16;
  int psum_bits = 16;   // a partial sum spilled to DRAM (systolic accumulators may be wider than a word)
  int weight_bits = 0;  // a weight (systolic weights may be narrower than a word); 0 = word_bits
  bool ifmap_raw = false;
  bool compressed_activations = true;  // false: every tensor is stored raw (systolic arrays)
  double ifmap_density = 1.0;          // expected non-zero share of stored ifmap values (1 - sparsity)
  double ofmap_density = 1.0;

  std::uint64_t raw_bytes(std::uint64_t words) const { return words * static_cast<std::uint64_t>(word_bits) / 8; }
  std::uint64_t psum_bytes(std::uint64_t psums) const { return psums * static_cast<std::uint64_t>(psum_bits) / 8; }
  // Weights are packed: two 4-bit weights to a byte, an odd one rounding up.
  std::uint64_t weight_bytes(std::uint64_t weights) const {
    return (weights * static_cast<std::uint64_t>(weight_width()) + 7) / 8;
  }
  int weight_width() const { return weight_bits > 0 ? weight_bits : word_bits; }
  // Non-zero values one 64-bit coded word holds.
  std::uint64_t nonzeros_per_coded_word() const { return word_bits == 8 ? 5 : 3; }
  // `values` values of which `nonzero_values` are non-zero, run-length coded unless raw is smaller.
  std::uint64_t coded_bytes(std::uint64_t values, std::uint64_t nonzero_values) const {
    const std::uint64_t per_word = nonzeros_per_coded_word();
    return std::min(raw_bytes(values), (nonzero_values + per_word - 1) / per_word * 8);
  }
  static std::uint64_t expected(std::uint64_t values, double density) {
    return static_cast<std::uint64_t>(std::llround(static_cast<double>(values) * density));
  }
  // Bytes of an ifmap transfer with `stored` values of which `nonzero` are non-zero.
  std::uint64_t ifmap_bytes(std::uint64_t stored, std::uint64_t nonzero) const {
    return ifmap_raw || !compressed_activations ? raw_bytes(stored) : coded_bytes(stored, nonzero);
  }
  std::uint64_t ofmap_bytes(std::uint64_t words) const {
    return compressed_activations ? coded_bytes(words, expected(words, ofmap_density)) : raw_bytes(words);
  }
};

}  // namespace ergon
