#pragma once
// Evaluates the operators exporters use for shape arithmetic (Shape, Gather, Slice, Concat, Unsqueeze,
// Cast, Reshape, Range, ConstantOfShape, element-wise arithmetic and comparisons, reductions, ...), so a
// graph's constant subgraphs fold into constants before lowering. numpy broadcasting, ONNX semantics.
#include <onnx/onnx_pb.h>

#include <optional>
#include <stdexcept>
#include <vector>

#include "network/importers/onnx/onnx_constant.hpp"

namespace ergon {

// An input of a node being folded: a constant (maybe without values), or a tensor with a static shape
// (what Shape and Size need), or nothing known.
struct FoldInput {
  const OnnxConstant* constant = nullptr;
  std::optional<std::vector<std::int64_t>> shape;
};

// The node's outputs when it can be evaluated: every input constant with values (Shape and Size: a
// static shape suffices). nullopt when it cannot. Throws FoldError for attributes that contradict the
// inputs (an out-of-range axis, a Reshape that changes the element count).
std::optional<std::vector<OnnxConstant>> fold_node(const onnx::NodeProto& node, const std::vector<FoldInput>& inputs,
                                                   std::int64_t opset);

class FoldError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace ergon
