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

struct PreparedOnnxGraph {
  onnx::ModelProto model;  // the nodes left after folding, in file order
  std::map<std::string, OnnxConstant> constants;
  std::map<std::string, std::vector<std::int64_t>> shapes;  // every tensor whose shape is static
  std::map<std::string, std::string> folded_by;             // constant tensor -> "node 'name' (OpType)"
  std::int64_t opset = 0;
  std::size_t folded_nodes = 0;
  std::vector<std::string> notes;  // what the preparation decided on the user's behalf
};

// Throws InputError naming the file and the input, node or tensor.
PreparedOnnxGraph prepare_onnx_graph(const std::string& path, const OnnxImportOptions& options);

}  // namespace ergon
