#pragma once
// Reads one workload node from YAML into a Layer, validating every key.
#include <cstdint>

#include "common/yaml_view.hpp"
#include "network/layer.hpp"

namespace ergon {

Layer parse_layer(const YamlView& node, std::int64_t default_batch);

}  // namespace ergon
