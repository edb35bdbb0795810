#pragma once
// Imports an ONNX model (Debian's libonnx, with its shape inference) as an Ergon workload graph
// (docs/workloads.md): Conv (dense, grouped, depthwise), Gemm and MatMul with constant weights,
// MaxPool/AveragePool and their global forms, Add, Mul, Concat, activations (Relu, Clip to [0, 6],
// LeakyRelu, Sigmoid, Tanh, HardSwish, Softmax), Flatten/Reshape to a vector. BatchNormalization, Dropout
// and Identity fold into their producer, as do Add and Mul with a constant. Any other operator is an
// error naming every unsupported node, never silently dropped. The tensor shapes Ergon infers are
// checked against ONNX's.
#include <yaml-cpp/yaml.h>

#include <string>

#include "network/workload.hpp"

namespace ergon {

// The workload as a YAML document (load_workload accepts `.onnx` paths through it). Throws InputError
// naming the file and the node.
YAML::Node import_onnx(const std::string& path);

// The workload itself, every layer's shape checked against ONNX's shape inference.
Workload load_onnx_workload(const std::string& path);

// The same as workload YAML text, with a header naming its source.
std::string onnx_workload_yaml(const std::string& path);

}  // namespace ergon
