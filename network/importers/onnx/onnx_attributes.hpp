#pragma once
// A node's attributes by name, for every part of the ONNX importer (folding, lowering, MAC counting).
#include <onnx/onnx_pb.h>

#include <cstdint>
#include <string>

namespace ergon {

// The attribute named `name`, or nullptr when the node has none.
inline const onnx::AttributeProto* find_attribute(const onnx::NodeProto& node, const std::string& name) {
  for (const auto& attribute : node.attribute()) {
    if (attribute.name() == name) return &attribute;
  }
  return nullptr;
}

// An integer attribute, or `fallback` when the node has none.
inline std::int64_t int_attribute(const onnx::NodeProto& node, const std::string& name, std::int64_t fallback) {
  const onnx::AttributeProto* attribute = find_attribute(node, name);
  return attribute == nullptr ? fallback : attribute->i();
}

}  // namespace ergon
