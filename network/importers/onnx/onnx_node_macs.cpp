#include "network/importers/onnx/onnx_node_macs.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "network/importers/onnx/onnx_attributes.hpp"

namespace ergon {
namespace {

using Dims = std::vector<std::int64_t>;

enum class Product { kConv, kConvTranspose, kMatMul, kGemm, kRecurrent };

struct MacOperator {
  Product product;
  int data = 0;     // the input whose elements or rows are multiplied
  int weights = 1;  // the input holding the weights (or the second operand)
};

// Where each counted operator keeps its operands (the quantised forms interleave scales and zero points).
const std::map<std::string, MacOperator>& mac_operators() {
  static const std::map<std::string, MacOperator> operators = {
      {"Conv", {Product::kConv}},
      {"ConvInteger", {Product::kConv}},
      {"QLinearConv", {Product::kConv, 0, 3}},
      {"FusedConv", {Product::kConv}},
      {"ConvTranspose", {Product::kConvTranspose}},
      {"MatMul", {Product::kMatMul}},
      {"MatMulInteger", {Product::kMatMul}},
      {"QLinearMatMul", {Product::kMatMul, 0, 3}},
      {"FusedMatMul", {Product::kMatMul}},
      {"Gemm", {Product::kGemm}},
      {"QGemm", {Product::kGemm, 0, 3}},
      {"LSTM", {Product::kRecurrent}},
      {"GRU", {Product::kRecurrent}},
      {"RNN", {Product::kRecurrent}},
  };
  return operators;
}

std::optional<std::uint64_t> product(const Dims& dims, std::size_t from = 0) {
  std::uint64_t result = 1;
  for (std::size_t i = from; i < dims.size(); ++i) {
    if (dims[i] < 0 || __builtin_mul_overflow(result, static_cast<std::uint64_t>(dims[i]), &result)) {
      return std::nullopt;
    }
  }
  return result;
}

std::optional<std::uint64_t> times(std::optional<std::uint64_t> a, std::optional<std::uint64_t> b) {
  std::uint64_t result = 0;
  if (!a || !b || __builtin_mul_overflow(*a, *b, &result)) return std::nullopt;
  return result;
}

// Whole-node MACs: every output (or, transposed, input) element times the weights feeding it.
std::optional<std::uint64_t> node_macs(const onnx::NodeProto& node, const MacOperator& op, const Dims& data,
                                       const Dims& weights, const Dims& output) {
  switch (op.product) {
    case Product::kConv:  // weights [F, C/groups, k...]: each output sums C/groups x k products
      return weights.size() < 3 ? std::nullopt : times(product(output), product(weights, 1));
    case Product::kConvTranspose:  // weights [C, F/groups, k...]: each input element feeds F/groups x k outputs
      return weights.size() < 3 ? std::nullopt : times(product(data), product(weights, 1));
    case Product::kMatMul:
      return data.empty() ? std::nullopt : times(product(output), static_cast<std::uint64_t>(data.back()));
    case Product::kGemm:
      if (data.size() != 2) return std::nullopt;
      return times(product(output),
                   static_cast<std::uint64_t>(int_attribute(node, "transA", 0) != 0 ? data[0] : data[1]));
    case Product::kRecurrent: {  // X [steps, batch, input] (or batch first); W [directions, gates x hidden, input]
      const std::int64_t hidden = int_attribute(node, "hidden_size", 0);
      if (data.size() != 3 || weights.size() != 3 || hidden <= 0) return std::nullopt;
      // Per step, sequence, direction and gate unit: the input's products and the recurrent state's.
      return times(product(Dims{data[0], data[1], weights[0], weights[1]}),
                   static_cast<std::uint64_t>(weights[2] + hidden));
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::uint64_t> onnx_node_macs(const onnx::NodeProto& node,
                                            const std::map<std::string, std::vector<std::int64_t>>& shapes,
                                            std::int64_t batch) {
  const auto op = mac_operators().find(node.op_type());
  if (op == mac_operators().end() || node.output_size() < 1) return std::nullopt;
  const auto shape = [&](int index) -> const Dims* {
    if (index >= node.input_size()) return nullptr;
    const auto found = shapes.find(node.input(index));
    return found == shapes.end() ? nullptr : &found->second;
  };
  const Dims* data = shape(op->second.data);
  const Dims* weights = shape(op->second.weights);
  const auto output = shapes.find(node.output(0));
  if (data == nullptr || weights == nullptr || output == shapes.end()) return std::nullopt;
  const std::optional<std::uint64_t> macs = node_macs(node, op->second, *data, *weights, output->second);
  if (!macs) return std::nullopt;
  return *macs / static_cast<std::uint64_t>(std::max<std::int64_t>(batch, 1));
}

std::optional<std::string> folded_compute_note(const onnx::NodeProto& node,
                                               const std::map<std::string, std::vector<std::int64_t>>& shapes) {
  const std::optional<std::uint64_t> macs = onnx_node_macs(node, shapes, 1);
  if (!macs || *macs == 0) return std::nullopt;
  return fmt::format(
      "node '{}' ({}) computes on constants only: its {} MACs are folded at import (computed once, "
      "offline) and are in no layer",
      node.name().empty() ? node.output(0) : node.name(), node.op_type(), *macs);
}

}  // namespace ergon
