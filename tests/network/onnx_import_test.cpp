// ONNX import: small models built here with the ONNX protobuf API, imported with their shapes checked
// against ONNX's inference, simulated; unsupported operators and broken files are reported.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <filesystem>
#include <fstream>

#include "common/input_error.hpp"
#include "network/importers/onnx_model.hpp"
#include "sim/simulation.hpp"
#include "tests/network/onnx_graph_builder.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

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
  const std::string yaml_path = (test::unique_temp_path("ergon_tiny_cnn.yaml")).string();
  std::ofstream(yaml_path) << onnx_workload_yaml(import_onnx(onnx_path), onnx_path);
  EXPECT_EQ(load_workload(yaml_path).total_macs(), load_workload(onnx_path).total_macs());
}

TEST(OnnxImport, NamesEveryUnsupportedOperatorWithItsCount) {
  OnnxGraph g;
  g.input("x", {1, 4, 8, 8});
  g.node("Relu", {"x"}, {"r"});
  g.node("LpNormalization", {"r"}, {"n"}, "norm");
  g.node("Hardmax", {"n"}, {"h1"}, "first");
  g.node("Hardmax", {"h1"}, {"h2"}, "second");
  g.output("h2", {1, 4, 8, 8});
  const std::string path = g.save("ergon_unsupported.onnx");
  try {
    load_onnx_workload(path);
    FAIL() << "no error";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("ergon_unsupported.onnx"), std::string::npos) << message;
    EXPECT_NE(message.find("3 node(s) cannot be lowered"), std::string::npos) << message;
    EXPECT_NE(message.find("LpNormalization x1: graph.node[1] (LpNormalization 'norm')"), std::string::npos) << message;
    EXPECT_NE(message.find("Hardmax x2: graph.node[2] (Hardmax 'first'); graph.node[3] (Hardmax 'second')"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("--skip-unsupported"), std::string::npos) << message;
  }
  // Skipping treats them as free layouts and says which.
  OnnxImportOptions skip;
  skip.skip_unsupported = true;
  const OnnxImport imported = import_onnx(path, skip);
  ASSERT_EQ(imported.notes.size(), 1u);
  EXPECT_NE(imported.notes[0].find("3 node(s) treated as free data movement"), std::string::npos) << imported.notes[0];
  const Workload workload = load_onnx_workload(path, skip);
  EXPECT_EQ(workload.layers().back().op, OpKind::kLayout);
  EXPECT_EQ(workload.layers().back().output_shape, (TensorShape{4, 8, 8}));
}

TEST(OnnxImport, RejectsFilesThatAreNotModels) {
  const std::string path = (test::unique_temp_path("ergon_garbage.onnx")).string();
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
    // The symbolic batch becomes 1; the channel dimension is the first the user must pin.
    const std::string message = error.what();
    EXPECT_NE(message.find("graph.input x: dimension 1 ('n') is not fixed"), std::string::npos) << message;
    EXPECT_NE(message.find("--input-shape x=1x?x?x?"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace ergon
