#pragma once
// Checks the structure of an ONNX graph before anything reads its shapes, so a broken graph is named for
// what it is (not as a shape ONNX could not infer): every tensor has one writer, every node input exists,
// the nodes form no cycle (they are put in topological order when the file lists them otherwise), and the
// external-data files the initializers name exist (small ones are read, so shape tensors fold).
#include <onnx/onnx_pb.h>

#include <string>

namespace ergon {

// Throws InputError naming the file and the nodes, tensor or external file at fault.
void check_graph_structure(const std::string& path, onnx::ModelProto& model);

}  // namespace ergon
