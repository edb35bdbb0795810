#include "dataflows/layer_tensors.hpp"

#include <algorithm>
#include <limits>
#include <random>

namespace ergon {

std::size_t ifmap_index(const LoopNest& nest, std::int64_t image, std::int64_t group, std::int64_t channel,
                        std::int64_t y, std::int64_t x) {
  const std::int64_t plane = (image * nest.groups + group) * nest.channels + channel;
  return static_cast<std::size_t>((plane * nest.input_h + y) * nest.input_w + x);
}

std::size_t weight_index(const LoopNest& nest, std::int64_t group, std::int64_t filter, std::int64_t channel,
                         std::int64_t r, std::int64_t s) {
  const std::int64_t kernel = (group * nest.filters + filter) * nest.channels + channel;
  return static_cast<std::size_t>((kernel * nest.filter_h + r) * nest.filter_w + s);
}

std::size_t ofmap_index(const LoopNest& nest, std::int64_t image, std::int64_t group, std::int64_t filter,
                        std::int64_t e, std::int64_t f) {
  const std::int64_t plane = (image * nest.groups + group) * nest.filters + filter;
  return static_cast<std::size_t>((plane * nest.ofmap_h + e) * nest.ofmap_w + f);
}

std::int32_t accumulator_identity(LoopNestKind kind) {
  return kind == LoopNestKind::kMaxPool ? std::numeric_limits<std::int32_t>::min() : 0;
}

std::int16_t padding_value(LoopNestKind kind) {
  return kind == LoopNestKind::kMaxPool ? std::numeric_limits<std::int16_t>::min() : 0;
}

LayerTensors synthetic_tensors(const LoopNest& nest, double ifmap_sparsity, int word_bits, int weight_bits,
                               std::uint64_t seed) {
  std::mt19937_64 random(seed);
  const auto largest = [](int bits) { return (1 << (bits - 1)) - 1; };  // symmetric: no -2^(bits-1)
  std::uniform_int_distribution<int> magnitude(1, largest(word_bits)), weight_magnitude(1, largest(weight_bits));
  std::bernoulli_distribution negative(0.5);
  std::bernoulli_distribution zero(ifmap_sparsity);
  const auto signed_value = [&](std::uniform_int_distribution<int>& distribution) {
    const int value = distribution(random);
    return static_cast<std::int16_t>(negative(random) ? -value : value);
  };
  const auto nonzero_value = [&] { return signed_value(magnitude); };
  LayerTensors tensors;
  tensors.ifmap.resize(
      static_cast<std::size_t>(nest.images * nest.groups * nest.channels * nest.input_h * nest.input_w));
  for (auto& value : tensors.ifmap) value = zero(random) ? std::int16_t{0} : nonzero_value();
  if (nest.kind == LoopNestKind::kConv) {
    tensors.weights.resize(
        static_cast<std::size_t>(nest.groups * nest.filters * nest.channels * nest.filter_h * nest.filter_w));
    for (auto& value : tensors.weights) value = signed_value(weight_magnitude);
  }
  tensors.ofmap.assign(static_cast<std::size_t>(nest.images * nest.groups * nest.filters * nest.ofmap_h * nest.ofmap_w),
                       0);
  return tensors;
}

std::vector<std::int32_t> reference_output(const LoopNest& nest, const LayerTensors& tensors) {
  std::vector<std::int32_t> output(tensors.ofmap.size());
  const bool weighted = nest.kind == LoopNestKind::kConv;
  for (std::int64_t n = 0; n < nest.images; ++n)
    for (std::int64_t g = 0; g < nest.groups; ++g)
      for (std::int64_t m = 0; m < nest.filters; ++m)
        for (std::int64_t e = 0; e < nest.ofmap_h; ++e)
          for (std::int64_t f = 0; f < nest.ofmap_w; ++f) {
            std::int32_t sum = accumulator_identity(nest.kind);
            for (std::int64_t c = 0; c < nest.channels; ++c)
              for (std::int64_t r = 0; r < nest.filter_h; ++r)
                for (std::int64_t s = 0; s < nest.filter_w; ++s) {
                  const std::int64_t y = e * nest.stride_h + r * nest.dilation_h - nest.pad_top;
                  const std::int64_t x = f * nest.stride_w + s * nest.dilation_w - nest.pad_left;
                  const bool inside = y >= 0 && y < nest.input_h && x >= 0 && x < nest.input_w;
                  const std::int16_t value =
                      inside ? tensors.ifmap[ifmap_index(nest, n, g, c, y, x)] : padding_value(nest.kind);
                  const std::int16_t weight = weighted ? tensors.weights[weight_index(nest, g, m, c, r, s)] : 0;
                  sum = accumulate(nest.kind, sum, value, weight);
                }
            output[ofmap_index(nest, n, g, m, e, f)] = sum;
          }
  return output;
}

}  // namespace ergon
