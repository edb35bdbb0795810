// What --skip-unsupported leaves out is said, not hidden: each skipped node's MACs counted from its shapes
// (worked out by hand here), the total as a warning, the list in the workload (its YAML too) and in
// report.json; an If whose condition does not fold takes its costlier branch. Also the graph structure the
// import now checks first: nodes out of topological order, external-data files.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "arch/accelerator_config.hpp"
#include "common/input_error.hpp"
#include "network/importers/onnx/onnx_node_macs.hpp"
#include "network/importers/onnx_model.hpp"
#include "power/energy_table.hpp"
#include "sim/run_report.hpp"
#include "sim/simulation.hpp"
#include "tests/network/onnx_graph_builder.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

using Shapes = std::map<std::string, std::vector<std::int64_t>>;

onnx::NodeProto node(const std::string& op, const std::vector<std::string>& inputs, const std::string& output) {
  onnx::NodeProto n;
  n.set_op_type(op);
  for (const auto& input : inputs) n.add_input(input);
  n.add_output(output);
  return n;
}

TEST(OnnxSkippedMacs, CountsConvolutionsAndProductsFromShapes) {
  // QLinearConv keeps its weights as input 3; 16 x 10 x 10 outputs of 8 channels x 3 x 3 taps, batch 2.
  const Shapes conv_shapes = {{"x", {2, 8, 12, 12}}, {"w", {16, 8, 3, 3}}, {"y", {2, 16, 10, 10}}};
  EXPECT_EQ(onnx_node_macs(node("QLinearConv", {"x", "s", "z", "w", "s", "z", "s", "z"}, "y"), conv_shapes, 2),
            16u * 10 * 10 * 8 * 9);
  EXPECT_EQ(onnx_node_macs(node("ConvInteger", {"x", "w"}, "y"), conv_shapes, 1), 2u * 16 * 10 * 10 * 8 * 9);
  // Grouped: weights [F, C/groups, k, k] give C/groups x k^2 per output whatever the groups.
  const Shapes grouped = {{"x", {1, 8, 4, 4}}, {"w", {8, 2, 3, 3}}, {"y", {1, 8, 4, 4}}};
  EXPECT_EQ(onnx_node_macs(node("Conv", {"x", "w"}, "y"), grouped, 1), 8u * 16 * 2 * 9);
  // ConvTranspose: every input element feeds F/groups x k^2 outputs.
  const Shapes transposed = {{"x", {1, 4, 5, 5}}, {"w", {4, 6, 2, 2}}, {"y", {1, 6, 10, 10}}};
  EXPECT_EQ(onnx_node_macs(node("ConvTranspose", {"x", "w"}, "y"), transposed, 1), 4u * 25 * 6 * 4);
  // Matrix products: output elements x the inner dimension.
  const Shapes matmul = {{"a", {1, 7, 64}}, {"b", {64, 32}}, {"y", {1, 7, 32}}};
  EXPECT_EQ(onnx_node_macs(node("MatMulInteger", {"a", "b"}, "y"), matmul, 1), 7u * 32 * 64);
  EXPECT_EQ(onnx_node_macs(node("QLinearMatMul", {"a", "s", "z", "b", "s", "z", "s", "z"}, "y"), matmul, 1),
            7u * 32 * 64);
  onnx::NodeProto gemm = node("Gemm", {"a", "b"}, "y");
  OnnxGraph::integer(&gemm, "transA", 1);
  EXPECT_EQ(onnx_node_macs(gemm, {{"a", {48, 3}}, {"b", {48, 5}}, {"y", {3, 5}}}, 1), 3u * 5 * 48);
  // LSTM: 6 steps x 1 sequence x 2 directions x 4 gates x 10 hidden x (12 inputs + 10 hidden).
  onnx::NodeProto lstm = node("LSTM", {"x", "w", "r"}, "y");
  OnnxGraph::integer(&lstm, "hidden_size", 10);
  EXPECT_EQ(onnx_node_macs(lstm, {{"x", {6, 1, 12}}, {"w", {2, 40, 12}}, {"y", {6, 2, 1, 10}}}, 1),
            6u * 2 * 40 * (12 + 10));
  // Nothing to count: an operator without products, or a shape ONNX could not infer.
  EXPECT_EQ(onnx_node_macs(node("Hardmax", {"x"}, "y"), conv_shapes, 1), std::nullopt);
  EXPECT_EQ(onnx_node_macs(node("ConvInteger", {"x", "w"}, "unknown"), conv_shapes, 1), std::nullopt);
}

// A volume: 3 x 4 x 8 x 8 -> 3-D Conv (8 filters, 3x3x3, pad 1) -> 3-D ConvTranspose (4 filters, 2x2x2, stride
// 2) -> Hardmax: three operators Ergon does not lower, two of them with MACs their shapes give.
OnnxGraph volumetric_net() {
  OnnxGraph g;
  g.input("volume", {1, 3, 4, 8, 8});
  g.weights("w_conv", {8, 3, 3, 3, 3});
  OnnxGraph::ints(g.node("Conv", {"volume", "w_conv"}, {"conv"}, "conv3d"), "pads", {1, 1, 1, 1, 1, 1});
  g.weights("w_up", {8, 4, 2, 2, 2});
  OnnxGraph::ints(g.node("ConvTranspose", {"conv", "w_up"}, {"up"}, "up3d"), "strides", {2, 2, 2});
  g.node("Hardmax", {"up"}, {"y"}, "pick");
  g.output("y", {1, 4, 8, 16, 16});
  return g;
}

TEST(OnnxSkippedMacs, WarnsOfTheMacsSkippingDropsAndListsTheNodes) {
  const std::string path = volumetric_net().save("ergon_volumetric.onnx");
  OnnxImportOptions skip;
  skip.skip_unsupported = true;
  const OnnxImport imported = import_onnx(path, skip);
  // Outputs x C x k^3; input elements x F x k^3.
  constexpr std::uint64_t kConvMacs = 8 * 4 * 8 * 8 * 3 * 27, kMatMulMacs = 8 * 4 * 8 * 8 * 4 * 8;
  ASSERT_EQ(imported.warnings.size(), 1u);
  const std::string& warning = imported.warnings[0];
  EXPECT_NE(warning.find(fmt::format("drops {} MACs per image", kConvMacs + kMatMulMacs)), std::string::npos)
      << warning;
  EXPECT_NE(warning.find("from 2 skipped node(s)"), std::string::npos) << warning;
  const std::size_t conv = warning.find(fmt::format("Conv 'conv3d': {} MACs", kConvMacs));
  const std::size_t matmul = warning.find(fmt::format("ConvTranspose 'up3d': {} MACs", kMatMulMacs));
  EXPECT_NE(conv, std::string::npos) << warning;
  EXPECT_LT(conv, matmul) << "the largest first: " << warning;

  // The list travels with the workload: in memory, and through the YAML `ergon import onnx` writes.
  const auto check = [&](const Workload& workload) {
    const std::vector<SkippedNode>& nodes = workload.skipped_nodes();
    ASSERT_EQ(nodes.size(), 3u);
    EXPECT_EQ(nodes[0].node, "conv3d");
    EXPECT_EQ(nodes[0].op, "Conv");
    EXPECT_EQ(nodes[0].macs, kConvMacs);
    EXPECT_EQ(nodes[1].macs, kMatMulMacs);
    EXPECT_EQ(nodes[2].op, "Hardmax");
    EXPECT_EQ(nodes[2].macs, std::nullopt);
    EXPECT_EQ(workload.total_macs(), 0u);
  };
  check(onnx_workload(imported, path));
  const std::string yaml_path = test::unique_temp_path("ergon_volumetric.yaml").string();
  std::ofstream(yaml_path) << onnx_workload_yaml(imported, path);
  check(load_workload(yaml_path));
}

// An operator of another domain that ONNX's inference cannot size and Ergon does not lower (onnxruntime's
// com.microsoft DecoderMaskedMultiHeadAttention, here over a projected input) reaches the unsupported list like any
// other, and so does every node its unsized output reaches, naming it: before, the first of them failed as if an input
// needed pinning.
TEST(OnnxSkippedMacs, AnOperatorOfAnotherDomainIsListedWithWhatItLeavesUnsized) {
  OnnxGraph g;
  g.model().add_opset_import()->set_domain("com.microsoft");
  g.model().mutable_opset_import(1)->set_version(1);
  g.input("x", {1, 16, 64});
  g.weights("qkv_w", {64, 192});
  g.weights("o_w", {64, 64});
  g.weights("ffn_w", {64, 64});
  auto* attention = g.node("DecoderMaskedMultiHeadAttention", {"x", "qkv_w"}, {"attn"});
  attention->set_domain("com.microsoft");
  attention->set_name("attention0");
  OnnxGraph::integer(attention, "num_heads", 4);
  g.node("MatMul", {"attn", "o_w"}, {"proj"});
  g.node("Add", {"proj", "x"}, {"residual"});
  g.node("MatMul", {"x", "ffn_w"}, {"ffn"});  // beside the attention: still lowered
  const std::string path = g.save("ergon_ms_attention.onnx");
  try {
    load_onnx_workload(path);
    FAIL() << "expected the unsupported list";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("3 node(s) cannot be lowered"), std::string::npos) << message;
    EXPECT_NE(message.find("operator of domain com.microsoft"), std::string::npos) << message;
    EXPECT_NE(message.find("reads 'attn', which unsupported node 'attention0' (DecoderMaskedMultiHeadAttention) leaves "
                           "without a shape"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("reads 'proj', which unsupported node 'attention0' (DecoderMaskedMultiHeadAttention)"),
              std::string::npos)
        << message;
  }
  OnnxImportOptions skip;
  skip.skip_unsupported = true;
  const Workload workload = load_onnx_workload(path, skip);
  EXPECT_EQ(workload.skipped_nodes().size(), 3u);
  EXPECT_EQ(workload.total_macs(), 16u * 64 * 64);  // the feed-forward product beside it
}

TEST(OnnxSkippedMacs, ReportJsonListsTheSkippedNodes) {
  OnnxGraph g;
  g.input("image", {1, 3, 8, 8});
  g.weights("w", {4, 3, 3, 3});
  g.node("Conv", {"image", "w"}, {"conv"}, "conv");
  g.weights("w_t", {4, 4, 1, 1});
  OnnxGraph::ints(g.node("ConvTranspose", {"conv", "w_t"}, {"y"}, "dilated"), "dilations", {2, 2});  // not lowered
  g.output("y", {1, 4, 6, 6});
  OnnxImportOptions skip;
  skip.skip_unsupported = true;
  const Workload workload = load_onnx_workload(g.save("ergon_report_skipped.onnx"), skip);
  const AcceleratorConfig config = load_accelerator_config(test::source_dir() + "/configs/eyeriss.yaml");
  const EnergyTable table = load_energy_table(test::source_dir() + "/power/tables/cnnergy_65nm.yaml");
  const SimulationResult result = Simulation(config, table, workload, SimulationOptions{}).run();
  const nlohmann::ordered_json report = run_json(result, config, workload, "transaction");
  const nlohmann::ordered_json& skipped = report["workload"]["skipped_nodes"];
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0]["node"], "dilated");
  EXPECT_EQ(skipped[0]["op"], "ConvTranspose");
  EXPECT_EQ(skipped[0]["macs"], 6u * 6 * 4 * 4);
  EXPECT_EQ(report["total"]["macs"], 6u * 6 * 4 * 27);  // the run holds the lowered conv alone
}

// x -> If (sr == 16000) then a 1x1 conv (1536 MACs) else a 3x3 conv, padded (13824 MACs).
OnnxGraph branching_net() {
  OnnxGraph g;
  g.input("x", {1, 3, 8, 8});
  g.typed_input("sr", {}, onnx::TensorProto::INT64);
  g.int64s("rate16k", {16000});
  g.node("Equal", {"sr", "rate16k"}, {"cond"}, "is16k");
  onnx::NodeProto* choose = g.node("If", {"cond"}, {"y"}, "choose");
  onnx::GraphProto* then_branch = OnnxGraph::subgraph(choose, "then_branch");
  OnnxGraph::typed_weights(then_branch, "w_then", {8, 3, 1, 1}, onnx::TensorProto::FLOAT);
  OnnxGraph::node_in(then_branch, "Conv", {"x", "w_then"}, "y_then");
  OnnxGraph::output_of(then_branch, "y_then", {1, 8, 8, 8});
  onnx::GraphProto* else_branch = OnnxGraph::subgraph(choose, "else_branch");
  OnnxGraph::typed_weights(else_branch, "w_else", {8, 3, 3, 3}, onnx::TensorProto::FLOAT);
  OnnxGraph::node_in(else_branch, "Conv", {"x", "w_else"}, "y_else");
  OnnxGraph::ints(else_branch->mutable_node(0), "pads", {1, 1, 1, 1});
  OnnxGraph::output_of(else_branch, "y_else", {1, 8, 8, 8});
  g.output("y", {1, 8, 8, 8});
  return g;
}

TEST(OnnxSkippedIf, TakesTheCostlierBranchAndSaysWhich) {
  const std::string path = branching_net().save("ergon_branching.onnx");
  // Without skipping, the If is an error naming the input that decides it.
  const std::string error = error_of(path);
  EXPECT_NE(error.find("If x1: graph.node[1] (If 'choose'): its condition depends on input 'sr': pass "
                       "--input-value sr=... to decide it"),
            std::string::npos)
      << error;
  OnnxImportOptions skip;
  skip.skip_unsupported = true;
  const OnnxImport imported = import_onnx(path, skip);
  EXPECT_EQ(onnx_workload(imported, path).total_macs(), 13824u);
  const std::string notes = fmt::format("{}", fmt::join(imported.notes, "\n"));
  EXPECT_NE(notes.find("If node 'choose' takes its else_branch, the costlier (13824 MACs per image for the whole "
                       "network, 1536 with its then_branch)"),
            std::string::npos)
      << notes;
  // A value for the input decides the branch the model takes, however cheap.
  skip.input_values["sr"] = {16000};
  EXPECT_EQ(load_onnx_workload(path, skip).total_macs(), 1536u);
}

TEST(OnnxStructure, TakesNodesListedOutOfOrderInTopologicalOrder) {
  OnnxGraph g;
  g.input("x", {1, 3, 8, 8});
  g.weights("w", {4, 3, 3, 3});
  g.node("Relu", {"c"}, {"y"}, "relu");  // reads the conv's output, listed first
  g.node("Conv", {"x", "w"}, {"c"}, "conv");
  g.output("y", {1, 4, 6, 6});
  const Workload workload = load_onnx_workload(g.save("ergon_out_of_order.onnx"));
  EXPECT_EQ(workload.total_macs(), 6u * 6 * 4 * 27);
}

TEST(OnnxStructure, ReadsSmallExternalDataBesideTheModel) {
  OnnxGraph g;
  g.input("x", {1, 3, 8, 8});
  onnx::TensorProto* target = g.graph()->add_initializer();
  target->set_name("target");
  target->set_data_type(onnx::TensorProto::INT64);
  target->add_dims(2);
  target->set_data_location(onnx::TensorProto::EXTERNAL);
  auto* location = target->add_external_data();
  location->set_key("location");
  const std::filesystem::path data_path = test::unique_temp_path("ergon_external_target.bin");
  location->set_value(data_path.filename().string());  // beside the model
  g.node("Reshape", {"x", "target"}, {"y"}, "flatten");
  g.output("y", {1, 192});
  const std::string path = g.save("ergon_external.onnx");
  const std::int64_t values[2] = {1, 192};
  std::ofstream(data_path, std::ios::binary).write(reinterpret_cast<const char*>(values), sizeof values);
  const Workload workload = load_onnx_workload(path);
  EXPECT_EQ(workload.layers().back().output_shape.elements(), 192);
  std::filesystem::remove(data_path);
  const std::string error = error_of(path);
  EXPECT_NE(
      error.find("initializer target: its data is in the external-data file '" + data_path.filename().string() + "'"),
      std::string::npos)
      << error;
}

}  // namespace
}  // namespace ergon
