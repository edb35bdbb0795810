#pragma once
// A constant tensor of an ONNX graph: an initializer, a Constant node's value, or a folded node's result.
// Small tensors carry their values (the shape arithmetic exporters emit); weights carry only their dims,
// which is all a lowering to Ergon's layers needs.
#include <onnx/onnx_pb.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ergon {

struct OnnxConstant {
  std::vector<std::int64_t> dims;
  std::int32_t data_type = onnx::TensorProto::FLOAT;
  bool has_values = false;
  // Integer and boolean tensors hold exact values here, floating-point ones in `reals`.
  std::vector<std::int64_t> ints;
  std::vector<double> reals;

  bool is_integer() const;
  std::int64_t elements() const;
  double real(std::size_t index) const { return is_integer() ? static_cast<double>(ints[index]) : reals[index]; }
  std::int64_t integer(std::size_t index) const {
    return is_integer() ? ints[index] : static_cast<std::int64_t>(reals[index]);
  }
  // The values as integers (shape arithmetic); nullopt when the values are not known.
  std::optional<std::vector<std::int64_t>> as_ints() const;
};

// Values are kept for tensors of at most this many elements; larger ones (weights) keep their dims only.
constexpr std::int64_t kMaxConstantValues = 1 << 16;

bool is_integer_type(std::int32_t data_type);
// The element type `graph` declares for `tensor` (an input, value_info, output or initializer); float when it
// declares none.
std::int32_t declared_element_type(const onnx::GraphProto& graph, const std::string& tensor);
// The bits of a quantised integer element type (int4, int8, int16); 0 for any other type.
int quantised_type_bits(std::int32_t data_type);

// Reads an initializer or a Constant node's tensor. External data and oversized tensors give dims only.
OnnxConstant constant_from_proto(const onnx::TensorProto& tensor);

// A TensorProto with the constant's dims, type and (when known) values, for ONNX's shape inference.
onnx::TensorProto constant_to_proto(const OnnxConstant& constant, const std::string& name);

// A Constant node's value (`value`, `value_int(s)`, `value_float(s)`); nullopt for sparse or string values.
std::optional<OnnxConstant> constant_node_value(const onnx::NodeProto& node);

}  // namespace ergon
