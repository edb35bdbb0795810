#pragma once
// Builds small ONNX models in tests with the ONNX protobuf API (Debian's libonnx).
#include <onnx/onnx_pb.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "common/input_error.hpp"
#include "network/importers/onnx_model.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
class OnnxGraph {
 public:
  OnnxGraph() {
    model_.set_ir_version(8);
    model_.add_opset_import()->set_version(13);
    model_.set_producer_name("ergon tests");
    graph()->set_name("tiny_cnn");
  }
  onnx::GraphProto* graph() { return model_.mutable_graph(); }
  onnx::ModelProto& model() { return model_; }
  void input(const std::string& name, const std::vector<std::int64_t>& dims) {
    value(graph()->add_input(), name, dims);
  }
  void output(const std::string& name, const std::vector<std::int64_t>& dims) {
    value(graph()->add_output(), name, dims);
  }
  // An input with a symbolic dimension wherever `dims` holds -1 (named `names`).
  void dynamic_input(const std::string& name, const std::vector<std::int64_t>& dims) {
    onnx::ValueInfoProto* v = graph()->add_input();
    v->set_name(name);
    auto* tensor = v->mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(onnx::TensorProto::FLOAT);
    for (std::int64_t d : dims) {
      auto* dim = tensor->mutable_shape()->add_dim();
      if (d < 0) {
        dim->set_dim_param("n" + std::to_string(tensor->shape().dim_size()));
      } else {
        dim->set_dim_value(d);
      }
    }
  }
  // An input whose dimensions are named where `symbols` names them ("" for a fixed one, taken from `dims`).
  void named_input(const std::string& name, const std::vector<std::int64_t>& dims,
                   const std::vector<std::string>& symbols) {
    onnx::ValueInfoProto* v = graph()->add_input();
    v->set_name(name);
    auto* tensor = v->mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(onnx::TensorProto::FLOAT);
    for (std::size_t i = 0; i < dims.size(); ++i) {
      auto* dim = tensor->mutable_shape()->add_dim();
      if (symbols[i].empty()) {
        dim->set_dim_value(dims[i]);
      } else {
        dim->set_dim_param(symbols[i]);
      }
    }
  }
  // An int64 vector initializer (shape arithmetic: reshape targets, axes, pads).
  void int64s(const std::string& name, const std::vector<std::int64_t>& values) {
    onnx::TensorProto* t = graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::INT64);
    t->add_dims(static_cast<std::int64_t>(values.size()));
    for (std::int64_t v : values) t->add_int64_data(v);
  }
  // A float vector initializer with values (scales, thresholds).
  void floats(const std::string& name, const std::vector<float>& values) {
    onnx::TensorProto* t = graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    t->add_dims(static_cast<std::int64_t>(values.size()));
    for (float v : values) t->add_float_data(v);
  }
  // A Constant node holding float weights of `dims` (as some exporters emit weights).
  void constant_weights(const std::string& name, const std::vector<std::int64_t>& dims) {
    onnx::NodeProto* n = node("Constant", {}, {name});
    onnx::AttributeProto* a = n->add_attribute();
    a->set_name("value");
    a->set_type(onnx::AttributeProto::TENSOR);
    onnx::TensorProto* t = a->mutable_t();
    t->set_data_type(onnx::TensorProto::FLOAT);
    std::int64_t count = 1;
    for (std::int64_t d : dims) {
      t->add_dims(d);
      count *= d;
    }
    t->set_raw_data(std::string(static_cast<std::size_t>(count) * 4, '\0'));
  }
  static void text(onnx::NodeProto* n, const std::string& name, const std::string& value) {
    onnx::AttributeProto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::STRING);
    a->set_s(value);
  }
  void set_opset(std::int64_t version) { model_.mutable_opset_import(0)->set_version(version); }
  // An input of another element type (onnx::TensorProto::UINT8, INT64, ...); empty dims: a scalar.
  void typed_input(const std::string& name, const std::vector<std::int64_t>& dims, int elem_type) {
    value(graph()->add_input(), name, dims);
    auto* tensor = graph()->mutable_input(graph()->input_size() - 1)->mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(elem_type);
    tensor->mutable_shape();  // declared, even with no dimensions (a scalar)
  }
  // Weights of any element type given by their dims alone (the import needs no values).
  static void typed_weights(onnx::GraphProto* graph, const std::string& name, const std::vector<std::int64_t>& dims,
                            int data_type) {
    onnx::TensorProto* t = graph->add_initializer();
    t->set_name(name);
    t->set_data_type(data_type);
    for (std::int64_t d : dims) t->add_dims(d);
  }
  // The graph of a node's GRAPH attribute (an If's then_branch or else_branch), created empty.
  static onnx::GraphProto* subgraph(onnx::NodeProto* n, const std::string& name) {
    onnx::AttributeProto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::GRAPH);
    a->mutable_g()->set_name(name);
    return a->mutable_g();
  }
  static void node_in(onnx::GraphProto* graph, const std::string& op, const std::vector<std::string>& inputs,
                      const std::string& output) {
    onnx::NodeProto* n = graph->add_node();
    n->set_op_type(op);
    n->set_name(output);
    for (const auto& i : inputs) n->add_input(i);
    n->add_output(output);
  }
  static void output_of(onnx::GraphProto* graph, const std::string& name, const std::vector<std::int64_t>& dims) {
    value(graph->add_output(), name, dims);
  }
  void weights(const std::string& name, const std::vector<std::int64_t>& dims) {
    onnx::TensorProto* t = graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    std::int64_t count = 1;
    for (std::int64_t d : dims) {
      t->add_dims(d);
      count *= d;
    }
    for (std::int64_t i = 0; i < count; ++i) t->add_float_data(0.5f);
  }
  onnx::NodeProto* node(const std::string& op, const std::vector<std::string>& inputs,
                        const std::vector<std::string>& outputs, const std::string& name = "") {
    onnx::NodeProto* n = graph()->add_node();
    n->set_op_type(op);
    n->set_name(name.empty() ? outputs.front() : name);
    for (const auto& i : inputs) n->add_input(i);
    for (const auto& o : outputs) n->add_output(o);
    return n;
  }
  static void ints(onnx::NodeProto* n, const std::string& name, const std::vector<std::int64_t>& values) {
    onnx::AttributeProto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (std::int64_t v : values) a->add_ints(v);
  }
  static void integer(onnx::NodeProto* n, const std::string& name, std::int64_t value) {
    onnx::AttributeProto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(value);
  }
  std::string save(const std::string& file) const {
    const std::string path = (test::unique_temp_path(file)).string();
    std::ofstream out(path, std::ios::binary);
    model_.SerializeToOstream(&out);
    return path;
  }

 private:
  static void value(onnx::ValueInfoProto* v, const std::string& name, const std::vector<std::int64_t>& dims) {
    v->set_name(name);
    auto* tensor = v->mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(onnx::TensorProto::FLOAT);
    for (std::int64_t d : dims) tensor->mutable_shape()->add_dim()->set_dim_value(d);
  }
  onnx::ModelProto model_;
};
// A workload's layers by name.
inline std::map<std::string, const Layer*> layers_by_name(const Workload& workload) {
  std::map<std::string, const Layer*> layers;
  for (const Layer& layer : workload.layers()) layers[layer.name] = &layer;
  return layers;
}

// The message with which importing `path` fails, or "no error".
inline std::string error_of(const std::string& path, const OnnxImportOptions& options = {}) {
  try {
    load_onnx_workload(path, options);
  } catch (const InputError& error) {
    return error.what();
  }
  return "no error";
}

}  // namespace ergon
