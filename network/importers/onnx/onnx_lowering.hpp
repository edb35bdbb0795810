#pragma once
// Lowers a prepared ONNX graph (static shapes, constants folded) to Ergon's workload layers.
//
// Tensors: an ONNX tensor of shape [N, d1, ..., dk] is one image's [d1, ..., dk] (N is the workload's
// batch), held as Ergon's [C, H, W]: [d1] -> [d1, 1, 1], [d1, d2] -> [d1, 1, d2], [d1, d2, d3] as is, and
// higher ranks -> [d1, d2 x ... x d(k-1), dk]. A layer that needs its input in another arrangement of the
// same elements (a GEMM reads [features, rows, 1]) gets a `layout` layer in between: free data movement.
#include <map>
#include <string>
#include <vector>

#include "network/importers/onnx/onnx_graph.hpp"

namespace ergon {

struct LoweredOnnx {
  YAML::Node document;
  std::vector<std::string> notes;
  std::vector<std::string> warnings;  // what the figures lack (nodes skipped with their MACs)
  // Each ONNX tensor that a layer produces, with the elements per image ONNX infers for it: the check that
  // the lowering is faithful compares these with the parsed workload's shapes.
  std::map<std::string, std::pair<std::string, std::int64_t>> tensor_layers;
};

LoweredOnnx lower_onnx_graph(const std::string& path, const PreparedOnnxGraph& graph, const OnnxImportOptions& options);

}  // namespace ergon
