#include "arch/controller/layer_values.hpp"

namespace ergon {

LayerTensors* LayerValues::tensors(std::size_t job) {
  const LayerJob& layer = jobs_[job];
  const LoopNest* nest = layer.plan->nest();
  if (nest == nullptr) return nullptr;
  auto& tensors = tensors_[job];
  if (!tensors) {
    const DramEncoding& encoding = layer.plan->encoding();
    tensors =
        std::make_unique<LayerTensors>(synthetic_tensors(*nest, 1 - encoding.ifmap_density, encoding.word_bits,
                                                         encoding.weight_width(), 0x5eed0000 + layer.layer_index));
  }
  return tensors.get();
}

std::uint64_t LayerValues::mismatches(std::size_t job) {
  const LayerTensors& values = *tensors(job);
  const std::vector<std::int32_t> expected = reference_output(*jobs_[job].plan->nest(), values);
  std::uint64_t count = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) count += expected[i] != values.ofmap[i] ? 1 : 0;
  return count;
}

}  // namespace ergon
