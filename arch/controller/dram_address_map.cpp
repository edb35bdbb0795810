#include "arch/controller/dram_address_map.hpp"

#include <optional>

namespace ergon {

DramAddressMap::DramAddressMap(const Workload& workload, const std::vector<std::int64_t>& batch_per_layer,
                               int word_bits) {
  const std::uint64_t word_bytes = (static_cast<std::uint64_t>(word_bits) + 7) / 8;
  const auto& layers = workload.layers();
  layers_.resize(layers.size());
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const Layer& layer = layers[i];
    const std::uint64_t output_bytes = static_cast<std::uint64_t>(layer.output_shape.elements()) *
                                       static_cast<std::uint64_t>(batch_per_layer.at(i)) * word_bytes;
    LayerRegions& regions = layers_[i];
    const auto producer_ofmap = [&](const std::string& name) -> std::optional<DramRegion> {
      const Layer* producer = workload.find_layer(name);
      if (producer == nullptr) return std::nullopt;
      return layers_[static_cast<std::size_t>(producer - layers.data())].ofmap;
    };
    // A matmul's second operand is an activation: its "weights" are read where its producer wrote them.
    const bool weights_from_input = layer.second_input_is_weights();
    const auto operand = weights_from_input ? producer_ofmap(layer.input_names[1]) : std::nullopt;
    regions.filters = operand ? *operand : allocate(layer.params_count * word_bytes);
    regions.ofmap = allocate(output_bytes);
    regions.psum_spill = allocate(layer.op == OpKind::kInput ? 0 : output_bytes);
    for (std::size_t k = 0; k < (weights_from_input ? 1 : layer.input_names.size()); ++k) {
      if (const auto ifmap = producer_ofmap(layer.input_names[k])) regions.ifmaps.push_back(*ifmap);
    }
    if (regions.ifmaps.empty()) regions.ifmaps.push_back(allocate(0));  // no producer: reads nothing real
  }
}

// Empty tensors still get one aligned block, so that a cursor always has somewhere to walk.
DramRegion DramAddressMap::allocate(std::uint64_t bytes) {
  const std::uint64_t used = std::max(bytes, kAlignmentBytes);
  const DramRegion region{next_, used};
  next_ += (used + kAlignmentBytes - 1) / kAlignmentBytes * kAlignmentBytes;
  return region;
}

}  // namespace ergon
