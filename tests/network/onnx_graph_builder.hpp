#pragma once
#include "tests/test_paths.hpp"
// Builds small ONNX models in tests with the ONNX protobuf API (Debian's libonnx).
#include <onnx/onnx_pb.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/test_paths.hpp"
namespace ergon {
#include "tests/test_paths.hpp"
class OnnxGraph {
#include "tests/test_paths.hpp"
 public:
#include "tests/test_paths.hpp"
  OnnxGraph() {
#include "tests/test_paths.hpp"
    model_.set_ir_version(8);
#include "tests/test_paths.hpp"
    model_.add_opset_import()->set_version(13);
#include "tests/test_paths.hpp"
    model_.set_producer_name("ergon tests");
#include "tests/test_paths.hpp"
    graph()->set_name("tiny_cnn");
#include "tests/test_paths.hpp"
  }
#include "tests/test_paths.hpp"
  onnx::GraphProto* graph() {
    return model_.mutable_graph();
  }
#include "tests/test_paths.hpp"
  void input(const std::string& name, const std::vector<std::int64_t>& dims) {
#include "tests/test_paths.hpp"
    value(graph()->add_input(), name, dims);
#include "tests/test_paths.hpp"
  }
#include "tests/test_paths.hpp"
  void output(const std::string& name, const std::vector<std::int64_t>& dims) {
#include "tests/test_paths.hpp"
    value(graph()->add_output(), name, dims);
#include "tests/test_paths.hpp"
  }
#include "tests/test_paths.hpp"
  // An input with a symbolic dimension wherever `dims` holds -1 (named `names`).
#include "tests/test_paths.hpp"
  void dynamic_input(const std::string& name, const std::vector<std::int64_t>& dims) {
#include "tests/test_paths.hpp"
    onnx::ValueInfoProto* v = graph()->add_input();
#include "tests/test_paths.hpp"
    v->set_name(name);
#include "tests/test_paths.hpp"
    auto* tensor = v->mutable_type()->mutable_tensor_type();
#include "tests/test_paths.hpp"
    tensor->set_elem_type(onnx::TensorProto::FLOAT);
#include "tests/test_paths.hpp"
    for (std::int64_t d : dims) {
#include "tests/test_paths.hpp"
      auto* dim = tensor->mutable_shape()->add_dim();
#include "tests/test_paths.hpp"
      if (d < 0) {
#include "tests/test_paths.hpp"
        dim->set_dim_param("n" + std::to_string(tensor->shape().dim_size()));
#include "tests/test_paths.hpp"
      } else {
#include "tests/test_paths.hpp"
        dim->set_dim_value(d);
#include "tests/test_paths.hpp"
      }
#include "tests/test_paths.hpp"
    }
#include "tests/test_paths.hpp"
  }
#include "tests/test_paths.hpp"
  // An int64 vector initializer (shape arithmetic: reshape targets, axes, pads).
#include "tests/test_paths.hpp"
  void int64s(const std::string& name, const std::vector<std::int64_t>& values) {
#include "tests/test_paths.hpp"
    onnx::TensorProto* t = graph()->add_initializer();
#include "tests/test_paths.hpp"
    t->set_name(name);
#include "tests/test_paths.hpp"
    t->set_data_type(onnx::TensorProto::INT64);
#include "tests/test_paths.hpp"
    t->add_dims(static_cast<std::int64_t>(values.size()));
#include "tests/test_paths.hpp"
    for (std::int64_t v : values) t->add_int64_data(v);
#include "tests/test_paths.hpp"
  }
#include "tests/test_paths.hpp"
  // A float vector initializer with values (scales, thresholds).
#include "tests/test_paths.hpp"
  void floats(const std::string& name, const std::vector<float>& values) {
#include "tests/test_paths.hpp"
    onnx::TensorProto* t = graph()->add_initializer();
#include "tests/test_paths.hpp"
    t->set_name(name);
#include "tests/test_paths.hpp"
    t->set_data_type(onnx::TensorProto::FLOAT);
#include "tests/test_paths.hpp"
    t->add_dims(static_cast<std::int64_t>(values.size()));
#include "tests/test_paths.hpp"
    for (float v : values) t->add_float_data(v);
#include "tests/test_paths.hpp"
  }
#include "tests/test_paths.hpp"
  // A Constant node holding float weights of `dims` (as some exporters emit weights).
#include "tests/test_paths.hpp"
  void constant_weights(const std::string& name, const std::vector<std::int64_t>& dims) {
#include "tests/test_paths.hpp"
    onnx::NodeProto* n = node("Constant", {}, {name});
#include "tests/test_paths.hpp"
    onnx::AttributeProto* a = n->add_attribute();
#include "tests/test_paths.hpp"
    a->set_name("value");
#include "tests/test_paths.hpp"
    a->set_type(onnx::AttributeProto::TENSOR);
#include "tests/test_paths.hpp"
    onnx::TensorProto* t = a->mutable_t();
#include "tests/test_paths.hpp"
    t->set_data_type(onnx::TensorProto::FLOAT);
#include "tests/test_paths.hpp"
    std::int64_t count = 1;
#include "tests/test_paths.hpp"
    for (std::int64_t d : dims) {
#include "tests/test_paths.hpp"
      t->add_dims(d);
#include "tests/test_paths.hpp"
      count *= d;
#include "tests/test_paths.hpp"
    }
#include "tests/test_paths.hpp"
    t->set_raw_data(std::string(static_cast<std::size_t>(count) * 4, '\0'));
#include "tests/test_paths.hpp"
  }
#include "tests/test_paths.hpp"
  static void text(onnx::NodeProto* n, const std::string& name, const std::string& value) {
#include "tests/test_paths.hpp"
    onnx::AttributeProto* a = n->add_attribute();
#include "tests/test_paths.hpp"
    a->set_name(name);
#include "tests/test_paths.hpp"
    a->set_type(onnx::AttributeProto::STRING);
#include "tests/test_paths.hpp"
    a->set_s(value);
#include "tests/test_paths.hpp"
  }
#include "tests/test_paths.hpp"
  void set_opset(std::int64_t version) {
    model_.mutable_opset_import(0)->set_version(version);
  }
#include "tests/test_paths.hpp"
  void weights(const std::string& name, const std::vector<std::int64_t>& dims) {
#include "tests/test_paths.hpp"
    onnx::TensorProto* t = graph()->add_initializer();
#include "tests/test_paths.hpp"
    t->set_name(name);
#include "tests/test_paths.hpp"
    t->set_data_type(onnx::TensorProto::FLOAT);
#include "tests/test_paths.hpp"
    std::int64_t count = 1;
#include "tests/test_paths.hpp"
    for (std::int64_t d : dims) {
#include "tests/test_paths.hpp"
      t->add_dims(d);
#include "tests/test_paths.hpp"
      count *= d;
#include "tests/test_paths.hpp"
    }
#include "tests/test_paths.hpp"
    for (std::int64_t i = 0; i < count; ++i) t->add_float_data(0.5f);
#include "tests/test_paths.hpp"
  }
#include "tests/test_paths.hpp"
  onnx::NodeProto* node(const std::string& op, const std::vector<std::string>& inputs,
#include "tests/test_paths.hpp"
                        const std::vector<std::string>& outputs, const std::string& name = "") {
#include "tests/test_paths.hpp"
    onnx::NodeProto* n = graph()->add_node();
#include "tests/test_paths.hpp"
    n->set_op_type(op);
#include "tests/test_paths.hpp"
    n->set_name(name.empty() ? outputs.front() : name);
#include "tests/test_paths.hpp"
    for (const auto& i : inputs) n->add_input(i);
#include "tests/test_paths.hpp"
    for (const auto& o : outputs) n->add_output(o);
#include "tests/test_paths.hpp"
    return n;
#include "tests/test_paths.hpp"
  }
#include "tests/test_paths.hpp"
  static void ints(onnx::NodeProto* n, const std::string& name, const std::vector<std::int64_t>& values) {
#include "tests/test_paths.hpp"
    onnx::AttributeProto* a = n->add_attribute();
#include "tests/test_paths.hpp"
    a->set_name(name);
#include "tests/test_paths.hpp"
    a->set_type(onnx::AttributeProto::INTS);
#include "tests/test_paths.hpp"
    for (std::int64_t v : values) a->add_ints(v);
#include "tests/test_paths.hpp"
  }
#include "tests/test_paths.hpp"
  static void integer(onnx::NodeProto* n, const std::string& name, std::int64_t value) {
#include "tests/test_paths.hpp"
    onnx::AttributeProto* a = n->add_attribute();
#include "tests/test_paths.hpp"
    a->set_name(name);
#include "tests/test_paths.hpp"
    a->set_type(onnx::AttributeProto::INT);
#include "tests/test_paths.hpp"
    a->set_i(value);
#include "tests/test_paths.hpp"
  }
#include "tests/test_paths.hpp"
  std::string save(const std::string& file) const {
#include "tests/test_paths.hpp"
    const std::string path = (test::unique_temp_path(file)).string();
#include "tests/test_paths.hpp"
    std::ofstream out(path, std::ios::binary);
#include "tests/test_paths.hpp"
    model_.SerializeToOstream(&out);
#include "tests/test_paths.hpp"
    return path;
#include "tests/test_paths.hpp"
  }
#include "tests/test_paths.hpp"
 private:
#include "tests/test_paths.hpp"
  static void value(onnx::ValueInfoProto* v, const std::string& name, const std::vector<std::int64_t>& dims) {
#include "tests/test_paths.hpp"
    v->set_name(name);
#include "tests/test_paths.hpp"
    auto* tensor = v->mutable_type()->mutable_tensor_type();
#include "tests/test_paths.hpp"
    tensor->set_elem_type(onnx::TensorProto::FLOAT);
#include "tests/test_paths.hpp"
    for (std::int64_t d : dims) tensor->mutable_shape()->add_dim()->set_dim_value(d);
#include "tests/test_paths.hpp"
  }
#include "tests/test_paths.hpp"
  onnx::ModelProto model_;
#include "tests/test_paths.hpp"
};
#include "tests/test_paths.hpp"
}  // namespace ergon
#include "tests/test_paths.hpp"
