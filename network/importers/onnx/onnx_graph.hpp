#pragma once
// Reads an ONNX model and brings it to the form the lowering needs: the inputs' dynamic dimensions pinned,
// every constant subgraph (weights built by Constant nodes, the shape arithmetic of tf2onnx, PyTorch and
// paddle2onnx exports) folded, and every remaining tensor's shape known from ONNX's shape inference, run
// again after each folding round until nothing more folds.
#include <onnx/onnx_pb.h>

#include <map>
#include <string>
#include <vector>

#include "network/importers/onnx/onnx_constant.hpp"
#include "network/importers/onnx_model.hpp"

namespace ergon {

// An If node whose condition is computed at run time (it did not fold to a constant).
struct UndecidedIf {
  std::string key;                         // its first output: names the node across preparations
  std::string name;                        // the node's name
  std::vector<std::string> scalar_inputs;  // graph inputs of one element its condition depends on
  // What to tell the user: which inputs decide it and the --input-value that would.
  std::string advice() const;
};

// If node (UndecidedIf::key) -> "then_branch" or "else_branch": the branch to inline when its condition
// does not fold (the import's choice for --skip-unsupported).
using BranchChoices = std::map<std::string, std::string>;

struct PreparedOnnxGraph {
  onnx::ModelProto model;  // the nodes left after folding, in file order
  std::map<std::string, OnnxConstant> constants;
  std::map<std::string, std::vector<std::int64_t>> shapes;  // every tensor whose shape is static
  std::map<std::string, std::string> folded_by;             // constant tensor -> "node 'name' (OpType)"
  std::map<std::string, std::size_t> batch_axes;            // input -> its batch dimension, when it has one
  // Float tensors that dequantise integers (QDQ models), with the integers' bits: a conv or product reading
  // them computes at those widths.
  std::map<std::string, int> quantised_bits;
  std::int64_t opset = 0;
  std::size_t folded_nodes = 0;
  std::vector<std::string> notes;     // what the preparation decided on the user's behalf
  std::vector<std::string> warnings;  // what may make the figures wrong
  std::vector<UndecidedIf> undecided_ifs;
};

// Throws InputError naming the file and the input, node or tensor.
PreparedOnnxGraph prepare_onnx_graph(const std::string& path, const OnnxImportOptions& options,
                                     const BranchChoices& chosen_branches = {});

}  // namespace ergon
