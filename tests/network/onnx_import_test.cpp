// ONNX import: small models built here with the ONNX protobuf API, imported with their shapes checked
// against ONNX's inference, simulated; unsupported operators and broken files are reported.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <filesystem>
#include <fstream>

#include "common/input_error.hpp"
#include "network/importers/onnx_model.hpp"
#include "sim/simulation.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

class OnnxGraph {
 public:
  OnnxGraph() {
    model_.set_ir_version(8);
    model_.add_opset_import()->set_version(13);
    model_.set_producer_name("ergon tests");
    graph()->set_name("tiny_cnn");
  }
  onnx::GraphProto* graph() { return model_.mutable_graph(); }

  void input(const std::string& name, const std::vector<std::int64_t>& dims) {
    value(graph()->add_input(), name, dims);
  }
  void output(const std::string& name, const std::vector<std::int64_t>& dims) {
    value(graph()->add_output(), name, dims);
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
    const std::string path = (std::filesystem::temp_directory_path() / file).string();
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

// conv 3x3 + relu + maxpool + depthwise conv with batchnorm, residual add, global pool, flatten, gemm.
OnnxGraph tiny_cnn() {
  OnnxGraph g;
  g.input("image", {1, 3, 16, 16});
  g.weights("w1", {8, 3, 3, 3});
  g.weights("b1", {8});
  auto* conv = g.node("Conv", {"image", "w1", "b1"}, {"c1"});
  OnnxGraph::ints(conv, "kernel_shape", {3, 3});
  OnnxGraph::ints(conv, "pads", {1, 1, 1, 1});
  g.node("Relu", {"c1"}, {"r1"});
  auto* pool = g.node("MaxPool", {"r1"}, {"p1"});
  OnnxGraph::ints(pool, "kernel_shape", {2, 2});
  OnnxGraph::ints(pool, "strides", {2, 2});
  g.weights("w2", {8, 1, 3, 3});
  auto* dw = g.node("Conv", {"p1", "w2"}, {"d1"});
  OnnxGraph::ints(dw, "kernel_shape", {3, 3});
  OnnxGraph::ints(dw, "pads", {1, 1, 1, 1});
  OnnxGraph::integer(dw, "group", 8);
  for (const char* name : {"s", "bias", "mean", "var"}) g.weights(name, {8});
  g.node("BatchNormalization", {"d1", "s", "bias", "mean", "var"}, {"n1"});
  g.node("Add", {"p1", "n1"}, {"a1"});
  g.node("GlobalAveragePool", {"a1"}, {"g1"});
  g.node("Flatten", {"g1"}, {"f1"});
  g.weights("w3", {10, 8});
  g.weights("b3", {10});
  auto* gemm = g.node("Gemm", {"f1", "w3", "b3"}, {"logits"});
  OnnxGraph::integer(gemm, "transB", 1);
  g.output("logits", {1, 10});
  return g;
}

TEST(OnnxImport, BuildsTheGraphWithShapesAndMacs) {
  const Workload workload = load_workload(tiny_cnn().save("ergon_tiny_cnn.onnx"));
  EXPECT_EQ(workload.name(), "tiny_cnn");
  std::map<std::string, const Layer*> layers;
  for (const Layer& layer : workload.layers()) layers[layer.name] = &layer;
  ASSERT_EQ(layers.size(), 8u);  // image, c1, r1, p1, d1, a1, g1, logits: BN and Flatten fold
  EXPECT_EQ(layers.at("c1")->output_shape, (TensorShape{8, 16, 16}));
  EXPECT_EQ(layers.at("p1")->output_shape, (TensorShape{8, 8, 8}));
  EXPECT_EQ(layers.at("d1")->conv().groups, 8);
  EXPECT_TRUE(layers.at("d1")->conv().batchnorm);
  EXPECT_EQ(layers.at("a1")->op, OpKind::kAdd);
  EXPECT_EQ(layers.at("logits")->output_shape, (TensorShape{10, 1, 1}));
  EXPECT_EQ(workload.total_macs(), 16u * 16 * 8 * 27 + 8u * 8 * 8 * 9 + 8u * 10);
}

TEST(OnnxImport, ImportedModelSimulates) {
  const Workload workload = load_workload(tiny_cnn().save("ergon_tiny_cnn_sim.onnx"));
  const AcceleratorConfig config = load_accelerator_config(test::source_dir() + "/configs/eyeriss.yaml");
  const EnergyTable table = load_energy_table(test::source_dir() + "/power/tables/cnnergy_65nm.yaml");
  const SimulationResult result = Simulation(config, table, workload, SimulationOptions{}).run();
  EXPECT_GT(result.total.cycles, 0u);
  EXPECT_GE(result.total.macs, workload.total_macs());
}

TEST(OnnxImport, WritesWorkloadYamlThatLoadsBack) {
  const std::string onnx_path = tiny_cnn().save("ergon_tiny_cnn_yaml.onnx");
  const std::string yaml_path = (std::filesystem::temp_directory_path() / "ergon_tiny_cnn.yaml").string();
  std::ofstream(yaml_path) << onnx_workload_yaml(onnx_path);
  EXPECT_EQ(load_workload(yaml_path).total_macs(), load_workload(onnx_path).total_macs());
}

TEST(OnnxImport, NamesEveryUnsupportedOperator) {
  OnnxGraph g;
  g.input("x", {1, 4, 8, 8});
  g.node("Relu", {"x"}, {"r"});
  g.node("LpNormalization", {"r"}, {"n"}, "norm");
  g.node("Erf", {"n"}, {"e"}, "erf");
  g.output("e", {1, 4, 8, 8});
  try {
    load_workload(g.save("ergon_unsupported.onnx"));
    FAIL() << "no error";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("ergon_unsupported.onnx"), std::string::npos) << message;
    EXPECT_NE(message.find("LpNormalization (graph.node[1] (LpNormalization 'norm'))"), std::string::npos) << message;
    EXPECT_NE(message.find("Erf (graph.node[2] (Erf 'erf'))"), std::string::npos) << message;
  }
}

TEST(OnnxImport, RejectsFilesThatAreNotModels) {
  const std::string path = (std::filesystem::temp_directory_path() / "ergon_garbage.onnx").string();
  std::ofstream(path, std::ios::binary) << "\\x08\\xff\\xff garbage";
  EXPECT_THROW(load_workload(path), InputError);
  OnnxGraph dynamic;
  auto* input = dynamic.graph()->add_input();
  input->set_name("x");
  input->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  for (int i = 0; i < 4; ++i)
    input->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_param("n");
  dynamic.node("Relu", {"x"}, {"y"});
  try {
    load_workload(dynamic.save("ergon_dynamic.onnx"));
    FAIL() << "no error";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("static shape"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace ergon
