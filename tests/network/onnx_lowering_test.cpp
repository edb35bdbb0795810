// ONNX import of what exporters emit: folded shape arithmetic and Constant-node weights, pinned dynamic
// dimensions, NHWC graphs, rank-3 (1-D) models, and each operator's lowering with its MAC and operation
// counts worked out by hand. MACs must not depend on the accelerator the model runs on.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "arch/accelerator_config.hpp"
#include "common/input_error.hpp"
#include "network/importers/onnx_model.hpp"
#include "power/energy_table.hpp"
#include "sim/simulation.hpp"
#include "tests/network/onnx_graph_builder.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

std::size_t count_op(const Workload& workload, OpKind op) {
  std::size_t count = 0;
  for (const Layer& layer : workload.layers()) count += layer.op == op ? 1 : 0;
  return count;
}

// PyTorch's flatten before a classifier: Shape -> Gather -> Concat -> Reshape, weights from a Constant node.
TEST(OnnxLowering, FoldsShapeArithmeticAndConstantNodeWeights) {
  OnnxGraph g;
  g.input("x", {1, 3, 8, 8});
  g.constant_weights("w", {4, 3, 3, 3});
  auto* conv = g.node("Conv", {"x", "w"}, {"c"});  // no kernel_shape: optional, taken from the weights
  OnnxGraph::ints(conv, "pads", {1, 1, 1, 1});
  g.node("Shape", {"c"}, {"s"});
  g.int64s("zero", {0});
  g.node("Gather", {"s", "zero"}, {"n"});
  g.int64s("minus_one", {-1});
  auto* concat = g.node("Concat", {"n", "minus_one"}, {"target"});
  OnnxGraph::integer(concat, "axis", 0);
  g.node("Reshape", {"c", "target"}, {"f"});
  g.weights("fc_w", {10, 256});
  auto* gemm = g.node("Gemm", {"f", "fc_w"}, {"y"});
  OnnxGraph::integer(gemm, "transB", 1);
  g.output("y", {1, 10});
  const Workload workload = load_onnx_workload(g.save("ergon_folding.onnx"));
  // x, c, f (the flatten: a free layout), y: the shape arithmetic left no layer.
  ASSERT_EQ(workload.layers().size(), 4u);
  const auto layers = layers_by_name(workload);
  EXPECT_EQ(layers.at("f")->op, OpKind::kLayout);
  EXPECT_EQ(layers.at("c")->conv().window.kernel_h, 3);
  EXPECT_FALSE(layers.at("c")->conv().bias);
  EXPECT_EQ(layers.at("y")->op, OpKind::kFullyConnected);
  EXPECT_EQ(workload.total_macs(), 8u * 8 * 4 * 27 + 256u * 10);
}

TEST(OnnxLowering, PinsDynamicDimensionsAndLocatesBadOnes) {
  OnnxGraph g;
  g.dynamic_input("x", {-1, 3, -1, -1});
  g.weights("w", {2, 3, 1, 1});
  g.node("Conv", {"x", "w"}, {"y"});
  const std::string path = g.save("ergon_dynamic_dims.onnx");
  EXPECT_NE(error_of(path).find("graph.input x: dimension 2 ('n3') is not fixed in the model; pin it with "
                                "--input-shape x=1x3x?x?"),
            std::string::npos)
      << error_of(path);
  OnnxImportOptions options;
  add_input_shape(options, "x=2x3x4x4");
  const Workload pinned = load_onnx_workload(path, options);
  EXPECT_EQ(pinned.layers().front().batch, 2);
  EXPECT_EQ(pinned.total_macs(), 4u * 4 * 2 * 3);

  OnnxImportOptions unknown;
  add_input_shape(unknown, "image=1x3x4x4");
  EXPECT_NE(error_of(path, unknown).find("--input-shape image: the model has no input 'image'; its inputs are: x"),
            std::string::npos)
      << error_of(path, unknown);
  OnnxImportOptions wrong_rank;
  add_input_shape(wrong_rank, "x=1x3x4");
  EXPECT_NE(error_of(path, wrong_rank).find("gives 3 dimensions but the model declares 4"), std::string::npos);
  EXPECT_THROW(add_input_shape(options, "x=1x0x4x4"), std::invalid_argument);
  EXPECT_THROW(add_input_shape(options, "no_dims"), std::invalid_argument);

  OnnxGraph zero;
  zero.input("x", {0, 3, 4, 4});
  zero.weights("w", {2, 3, 1, 1});
  zero.node("Conv", {"x", "w"}, {"y"});
  EXPECT_NE(error_of(zero.save("ergon_batch_zero.onnx")).find("graph.input x: dimension 0 is 0"), std::string::npos);
}

// tf2onnx wraps an NHWC graph in Transposes and concatenates along the last axis.
TEST(OnnxLowering, ImportsNhwcGraphs) {
  OnnxGraph g;
  g.input("x", {1, 8, 8, 3});
  auto* to_nchw = g.node("Transpose", {"x"}, {"xt"});
  OnnxGraph::ints(to_nchw, "perm", {0, 3, 1, 2});
  g.weights("w", {4, 3, 3, 3});
  auto* conv = g.node("Conv", {"xt", "w"}, {"c"});
  OnnxGraph::ints(conv, "pads", {1, 1, 1, 1});
  auto* to_nhwc = g.node("Transpose", {"c"}, {"ct"});
  OnnxGraph::ints(to_nhwc, "perm", {0, 2, 3, 1});
  auto* concat = g.node("Concat", {"ct", "x"}, {"y"});
  OnnxGraph::integer(concat, "axis", -1);
  const Workload workload = load_onnx_workload(g.save("ergon_nhwc.onnx"));
  EXPECT_EQ(workload.total_macs(), 8u * 8 * 4 * 27);
  const auto layers = layers_by_name(workload);
  EXPECT_EQ(layers.at("y")->op, OpKind::kLayout);
  EXPECT_EQ(layers.at("y")->output_shape.elements(), 8 * 8 * 7);
  EXPECT_EQ(layers.at("c")->input_shapes[0], (TensorShape{3, 8, 8}));
}

TEST(OnnxLowering, RunsOneDimensionalConvolutionsOnRankThreeInputs) {
  OnnxGraph g;
  g.input("audio", {1, 4, 32});
  g.weights("w", {8, 4, 3});
  auto* conv = g.node("Conv", {"audio", "w"}, {"c"});
  OnnxGraph::ints(conv, "pads", {1, 1});
  auto* pool = g.node("MaxPool", {"c"}, {"p"});
  OnnxGraph::ints(pool, "kernel_shape", {2});
  OnnxGraph::ints(pool, "strides", {2});
  const Workload workload = load_onnx_workload(g.save("ergon_conv1d.onnx"));
  const auto layers = layers_by_name(workload);
  EXPECT_EQ(layers.at("audio")->output_shape, (TensorShape{4, 1, 32}));
  EXPECT_EQ(layers.at("c")->conv().window.kernel_h, 1);
  EXPECT_EQ(layers.at("c")->conv().window.kernel_w, 3);
  EXPECT_EQ(layers.at("p")->output_shape, (TensorShape{8, 1, 16}));
  EXPECT_EQ(workload.total_macs(), 32u * 8 * 4 * 3);
  EXPECT_EQ(layers.at("p")->vector_ops, 8u * 16 * 2);  // one comparison per window element
}

TEST(OnnxLowering, FoldsAZeroPadIntoTheConvolutionAfterIt) {
  OnnxGraph g;
  g.input("x", {1, 3, 8, 8});
  g.int64s("pads", {0, 0, 1, 1, 0, 0, 1, 1});
  g.node("Pad", {"x", "pads"}, {"padded"});
  g.weights("w", {4, 3, 3, 3});
  g.node("Conv", {"padded", "w"}, {"c"});
  const Workload workload = load_onnx_workload(g.save("ergon_pad.onnx"));
  ASSERT_EQ(workload.layers().size(), 2u);
  const Padding& p = layers_by_name(workload).at("c")->conv().window.padding;
  EXPECT_EQ((std::vector<std::int64_t>{p.top, p.bottom, p.left, p.right}), (std::vector<std::int64_t>{1, 1, 1, 1}));
  EXPECT_EQ(workload.total_macs(), 8u * 8 * 4 * 27);
}

// ConvTranspose k=4, s=2, p=1 doubles 8x8 to 16x16: 4 phases of 2x2 taps, exactly H W C F k^2 MACs.
TEST(OnnxLowering, LowersTransposedConvolutionToSubPixelPhases) {
  OnnxGraph g;
  g.input("x", {1, 4, 8, 8});
  g.weights("w", {4, 2, 4, 4});
  auto* deconv = g.node("ConvTranspose", {"x", "w"}, {"y"});
  OnnxGraph::ints(deconv, "strides", {2, 2});
  OnnxGraph::ints(deconv, "pads", {1, 1, 1, 1});
  const Workload workload = load_onnx_workload(g.save("ergon_deconv.onnx"));
  const auto layers = layers_by_name(workload);
  const Layer& phases = *layers.at("y/subpixel");
  EXPECT_EQ(phases.conv().filters, 2 * 4);
  EXPECT_EQ(phases.conv().window.kernel_h, 2);
  EXPECT_EQ(phases.output_shape, (TensorShape{8, 8, 8}));
  EXPECT_EQ(layers.at("y")->output_shape, (TensorShape{2, 16, 16}));
  EXPECT_EQ(workload.total_macs(), 8u * 8 * 4 * 2 * 16);
}

// A transformer's projection (rank-3 MatMul with constant weights) and its attention scores (two
// activations), then a softmax.
TEST(OnnxLowering, LowersMatMulsOfAnyRank) {
  OnnxGraph g;
  g.input("tokens", {1, 5, 16});
  g.weights("wq", {16, 32});
  g.node("MatMul", {"tokens", "wq"}, {"q"});
  auto* transpose = g.node("Transpose", {"q"}, {"kt"});
  OnnxGraph::ints(transpose, "perm", {0, 2, 1});
  g.node("MatMul", {"q", "kt"}, {"scores"});
  auto* softmax = g.node("Softmax", {"scores"}, {"attention"});
  OnnxGraph::integer(softmax, "axis", -1);
  const Workload workload = load_onnx_workload(g.save("ergon_matmul.onnx"));
  const auto layers = layers_by_name(workload);
  EXPECT_EQ(layers.at("q")->op, OpKind::kConv);  // 5 rows of 16 features: a 1x1 convolution
  EXPECT_EQ(layers.at("q")->macs, 5u * 16 * 32);
  EXPECT_EQ(layers.at("scores")->op, OpKind::kMatMul);
  EXPECT_EQ(layers.at("scores")->macs, 5u * 32 * 5);
  EXPECT_EQ(layers.at("scores")->params_count, 0u);
  EXPECT_EQ(layers.at("attention")->vector_ops, 3u * 25);
  EXPECT_EQ(workload.total_macs(), 5u * 16 * 32 + 5u * 32 * 5);
  // Both array kinds run the activation x activation product as a GEMM, with every MAC.
  const EnergyTable table = load_energy_table(test::source_dir() + "/power/tables/cnnergy_65nm.yaml");
  for (const char* config : {"eyeriss", "edge_tpu"}) {
    const AcceleratorConfig accelerator =
        load_accelerator_config(test::source_dir() + "/configs/" + std::string(config) + ".yaml");
    const SimulationResult result = Simulation(accelerator, table, workload, SimulationOptions{}).run();
    EXPECT_EQ(result.total.macs, workload.total_macs()) << config;
    const auto scores = std::find_if(result.layers.begin(), result.layers.end(),
                                     [](const LayerResult& layer) { return layer.name == "scores"; });
    ASSERT_NE(scores, result.layers.end());
    EXPECT_TRUE(scores->executed) << config;
    EXPECT_GT(scores->count("dram.read"), 0u) << config;
    // The projection's rows lie down the height, so the systolic array fetches each operand once: the
    // 5 x 16 tokens and the 16 x 32 weights, one byte each.
    if (std::string(config) == "edge_tpu") {
      const auto q = std::find_if(result.layers.begin(), result.layers.end(),
                                  [](const LayerResult& layer) { return layer.name == "q"; });
      EXPECT_EQ(q->count("dram.read"), 5u * 16 + 16u * 32);
    }
  }
}

// Constants folded from the input's shape keep their own dims for their consumers, small ones with values
// (ViT's class token expanded to the batch) and large ones without (a causal mask sliced to the sequence).
// An earlier round of ONNX's inference had given them symbolic dims, which once left every consumer unsized.
TEST(OnnxLowering, AFoldedConstantKeepsItsShapeForItsConsumers) {
  OnnxGraph g;
  g.dynamic_input("x", {-1, 196, 192});
  g.weights("cls", {1, 1, 192});
  g.weights("w", {192, 192});
  g.weights("mask_table", {1, 1, 1024, 1024});  // over 65,536 values: folded without them
  g.int64s("zero", {0});
  g.int64s("one", {1});
  g.int64s("tail", {1, 192});
  g.node("Shape", {"x"}, {"s"});
  auto* gather = g.node("Gather", {"s", "zero"}, {"batch"});
  OnnxGraph::integer(gather, "axis", 0);
  auto* shape = g.node("Concat", {"batch", "tail"}, {"cls_shape"});
  OnnxGraph::integer(shape, "axis", 0);
  g.node("Expand", {"cls", "cls_shape"}, {"cls_batch"});
  auto* tokens = g.node("Concat", {"cls_batch", "x"}, {"tokens"});
  OnnxGraph::integer(tokens, "axis", 1);
  g.node("MatMul", {"tokens", "w"}, {"q"});
  OnnxGraph::ints(g.node("Transpose", {"q"}, {"kt"}), "perm", {0, 2, 1});
  g.node("MatMul", {"q", "kt"}, {"scores"});
  g.node("Shape", {"tokens"}, {"ts"});
  auto* sequence = g.node("Gather", {"ts", "one"}, {"sequence"});
  OnnxGraph::integer(sequence, "axis", 0);
  g.int64s("axes", {2, 3});
  auto* ends = g.node("Concat", {"sequence", "sequence"}, {"ends"});
  OnnxGraph::integer(ends, "axis", 0);
  g.int64s("starts", {0, 0});
  g.node("Slice", {"mask_table", "starts", "ends", "axes"}, {"mask"});
  g.node("Add", {"scores", "mask"}, {"masked"});
  const Workload workload = load_onnx_workload(g.save("ergon_folded_shapes.onnx"));
  const auto layers = layers_by_name(workload);
  EXPECT_EQ(layers.at("q")->macs, 197u * 192 * 192);
  EXPECT_EQ(layers.at("scores")->macs, 197u * 192 * 197);
  EXPECT_EQ(layers.at("masked")->output_shape.elements(), std::int64_t{197} * 197);
  EXPECT_EQ(workload.total_macs(), 197u * 192 * 192 + 197u * 192 * 197);
}

// onnxruntime's transformer optimizer fuses the element-wise parts of a BERT layer into com.microsoft
// operators, and newer opsets add Gelu (20) and RMSNormalization (23), none of which this ONNX library's
// inference sizes: Ergon keeps their input's shape and lowers them as vector work. The fused normalisation's
// fourth output (input + skip) feeds the next residual, as the optimizer wires it.
TEST(OnnxLowering, LowersFusedElementwiseTransformerOperators) {
  OnnxGraph g;
  g.model().mutable_opset_import(0)->set_version(23);
  g.model().add_opset_import()->set_domain("com.microsoft");
  g.model().mutable_opset_import(1)->set_version(1);
  g.input("x", {1, 8, 32});
  g.input("skip", {1, 8, 32});
  for (const char* name : {"gamma", "beta", "bias"}) g.weights(name, {32});
  g.weights("w", {32, 32});
  auto* skip_norm = g.node("SkipLayerNormalization", {"x", "skip", "gamma", "beta", "bias"}, {"norm", "", "", "sum"});
  skip_norm->set_domain("com.microsoft");
  g.node("MatMul", {"norm", "w"}, {"proj"});
  auto* gelu = g.node("FastGelu", {"proj", "bias"}, {"act"});
  gelu->set_domain("com.microsoft");
  g.node("Gelu", {"act"}, {"act2"});  // opset 20
  g.node("Add", {"act2", "sum"}, {"residual"});
  g.node("RMSNormalization", {"residual", "gamma"}, {"out"});  // opset 23
  const Workload workload = load_onnx_workload(g.save("ergon_fused_elementwise.onnx"));
  const auto layers = layers_by_name(workload);
  EXPECT_EQ(layers.at("proj")->macs, 8u * 32 * 32);
  EXPECT_EQ(workload.total_macs(), 8u * 32 * 32);
  EXPECT_EQ(layers.at("sum")->op, OpKind::kElementwise);
  EXPECT_EQ(layers.at("sum")->vector_ops, 2u * 8 * 32);  // input + skip + bias
  EXPECT_EQ(layers.at("residual")->input_names, (std::vector<std::string>{"act2", "sum"}));
  EXPECT_EQ(layers.at("act")->op, OpKind::kActivation);
  EXPECT_EQ(layers.at("act2")->op, OpKind::kActivation);
  EXPECT_EQ(layers.at("out")->vector_ops, 4u * 8 * 32);
  EXPECT_EQ(layers.at("out")->output_shape.elements(), std::int64_t{8} * 32);
}

// A static QDQ model (onnxruntime's quantize_static): QuantizeLinear + DequantizeLinear around the
// activations and a DequantizeLinear over int8 weights make one int8 conv, not a float conv plus
// element-wise work; only the float input's quantisation is vector work.
TEST(OnnxLowering, QdqPairsAroundAConvMakeAnInt8Conv) {
  OnnxGraph g;
  g.input("image", {1, 3, 8, 8});
  g.floats("scale", {0.02f});
  OnnxGraph::typed_weights(g.graph(), "zero", {}, onnx::TensorProto::UINT8);
  OnnxGraph::typed_weights(g.graph(), "wzero", {}, onnx::TensorProto::INT8);
  OnnxGraph::typed_weights(g.graph(), "w_q", {8, 3, 3, 3}, onnx::TensorProto::INT8);
  g.node("QuantizeLinear", {"image", "scale", "zero"}, {"image_q"});
  g.node("DequantizeLinear", {"image_q", "scale", "zero"}, {"image_dq"});
  g.node("DequantizeLinear", {"w_q", "scale", "wzero"}, {"w"});
  auto* conv = g.node("Conv", {"image_dq", "w"}, {"conv"}, "conv");
  OnnxGraph::ints(conv, "pads", {1, 1, 1, 1});
  g.node("Relu", {"conv"}, {"relu"});
  const Workload workload = load_onnx_workload(g.save("ergon_qdq_conv.onnx"));
  const auto layers = layers_by_name(workload);
  EXPECT_EQ(count_op(workload, OpKind::kElementwise), 1u);  // the float input quantised: 3 per element
  EXPECT_EQ(layers.at("image_q")->vector_ops, 3u * 3 * 8 * 8);
  EXPECT_EQ(count_op(workload, OpKind::kConv), 1u);
  EXPECT_EQ(layers.at("conv")->macs, 8u * 8 * 8 * 27);
  EXPECT_EQ(layers.at("conv")->widths.activation_bits, 8);
  EXPECT_EQ(layers.at("conv")->widths.weight_bits, 8);
  EXPECT_EQ(layers.at("conv")->widths.accumulator_bits, 32);
}

// A Loop whose trip count is an input (computed at run time): without --loop-trips it is listed as
// unsupported with the advice; with it, its body is unrolled that many times, each trip's product counted.
TEST(OnnxLowering, UnrollsALoopByLoopTrips) {
  OnnxGraph g;
  g.input("x", {1, 8});
  g.typed_input("trips", {}, onnx::TensorProto::INT64);
  g.weights("w", {8, 8});
  auto* loop = g.node("Loop", {"trips", "", "x"}, {"y"}, "loop");
  onnx::GraphProto* body = OnnxGraph::subgraph(loop, "body");
  const auto declare = [](onnx::ValueInfoProto* value, const std::string& name, int type) {
    value->set_name(name);
    value->mutable_type()->mutable_tensor_type()->set_elem_type(type);
  };
  declare(body->add_input(), "i", onnx::TensorProto::INT64);
  declare(body->add_input(), "cond", onnx::TensorProto::BOOL);
  declare(body->add_input(), "state", onnx::TensorProto::FLOAT);
  OnnxGraph::node_in(body, "MatMul", {"state", "w"}, "next");
  OnnxGraph::node_in(body, "Identity", {"cond"}, "cond_out");
  declare(body->add_output(), "cond_out", onnx::TensorProto::BOOL);
  declare(body->add_output(), "next", onnx::TensorProto::FLOAT);
  const std::string path = g.save("ergon_loop_trips.onnx");
  EXPECT_NE(error_of(path).find("give it with --loop-trips N"), std::string::npos) << error_of(path);
  OnnxImportOptions options;
  options.loop_trips = 3;
  const Workload workload = load_onnx_workload(path, options);
  EXPECT_EQ(workload.total_macs(), 3u * 8 * 8);
  EXPECT_EQ(count_op(workload, OpKind::kFullyConnected), 3u);
}

// Pins that contradict each other through the graph (two sequence lengths meeting at an Add) are named at
// the node where they meet, with both operands' shapes and the pins, not met with a request to pin.
TEST(OnnxLowering, PinsThatDoNotBroadcastAreNamedWhereTheyMeet) {
  OnnxGraph g;
  g.named_input("tokens", {1, -1, 8}, {"", "sequence", ""});
  g.named_input("positions", {1, -1, 8}, {"", "positions", ""});
  g.node("Add", {"tokens", "positions"}, {"sum"}, "embed_add");
  g.node("Relu", {"sum"}, {"out"});
  OnnxImportOptions options;
  add_input_shape(options, "tokens=1x4x8");
  add_input_shape(options, "positions=1x5x8");
  const std::string message = error_of(g.save("ergon_pins_broadcast.onnx"), options);
  EXPECT_NE(message.find("(Add 'embed_add'): its operands 'tokens' [1, 4, 8] and 'positions' [1, 5, 8] do not "
                         "broadcast (axis -2: 4 against 5)"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("--input-shape tokens=1x4x8"), std::string::npos) << message;
}

// torch.onnx splits a Linear into MatMul + Add: the added constant is the product's bias, and its
// parameters count (as the Linear's own).
TEST(OnnxLowering, AnAddedConstantAfterAProductIsItsBias) {
  OnnxGraph g;
  g.input("x", {1, 6, 32});
  g.weights("w", {32, 48});
  g.weights("b", {48});
  g.node("MatMul", {"x", "w"}, {"product"}, "linear");
  g.node("Add", {"product", "b"}, {"y"});
  const Workload workload = load_onnx_workload(g.save("ergon_matmul_bias.onnx"));
  const auto layers = layers_by_name(workload);
  EXPECT_TRUE(layers.at("linear")->conv().bias);
  EXPECT_EQ(workload.total_params(), 32u * 48 + 48);
  EXPECT_EQ(workload.total_macs(), 6u * 32 * 48);
}

// Quantised graphs as exporters write them: QLinearConv (weights at input 3, int32 bias at 8), a dynamically
// quantised product (DynamicQuantizeLinear, then MatMulInteger with its zero point, dequantised by a Mul with
// the scales) and QLinearMatMul: each computes what its float operator would, with the same MACs.
TEST(OnnxLowering, LowersQuantisedConvolutionsAndProducts) {
  OnnxGraph g;
  g.typed_input("image", {1, 3, 8, 8}, onnx::TensorProto::UINT8);
  OnnxGraph::typed_weights(g.graph(), "w_conv", {8, 3, 3, 3}, onnx::TensorProto::INT8);
  OnnxGraph::typed_weights(g.graph(), "bias", {8}, onnx::TensorProto::INT32);
  g.floats("scale", {0.02f});
  OnnxGraph::typed_weights(g.graph(), "zero", {}, onnx::TensorProto::UINT8);
  OnnxGraph::typed_weights(g.graph(), "wzero", {}, onnx::TensorProto::INT8);
  auto* qconv = g.node("QLinearConv", {"image", "scale", "zero", "w_conv", "scale", "wzero", "scale", "zero", "bias"},
                       {"conv"}, "qconv");
  OnnxGraph::ints(qconv, "pads", {1, 1, 1, 1});
  g.node("DequantizeLinear", {"conv", "scale", "zero"}, {"conv_f"});
  g.int64s("flat_shape", {1, 512});
  g.node("Reshape", {"conv_f", "flat_shape"}, {"flat"});
  g.node("DynamicQuantizeLinear", {"flat"}, {"flat_q", "flat_scale", "flat_zero"}, "quantize");
  OnnxGraph::typed_weights(g.graph(), "w_fc", {512, 16}, onnx::TensorProto::UINT8);
  g.node("MatMulInteger", {"flat_q", "w_fc", "flat_zero", "zero"}, {"fc_i32"}, "qmatmul");
  auto* cast = g.node("Cast", {"fc_i32"}, {"fc_f"});
  OnnxGraph::integer(cast, "to", onnx::TensorProto::FLOAT);
  g.node("Mul", {"fc_f", "flat_scale"}, {"fc"});
  g.node("QuantizeLinear", {"fc", "scale", "zero"}, {"fc_q"});
  OnnxGraph::typed_weights(g.graph(), "w_out", {16, 10}, onnx::TensorProto::UINT8);
  g.node("QLinearMatMul", {"fc_q", "scale", "zero", "w_out", "scale", "zero", "scale", "zero"}, {"logits"}, "out");
  const Workload workload = load_onnx_workload(g.save("ergon_quantised_graph.onnx"));
  const auto layers = layers_by_name(workload);
  EXPECT_EQ(layers.at("qconv")->op, OpKind::kConv);
  EXPECT_TRUE(layers.at("qconv")->conv().bias);
  EXPECT_EQ(layers.at("qconv")->macs, 8u * 8 * 8 * 27);
  EXPECT_EQ(layers.at("qconv")->widths.activation_bits, 8);  // uint8 x int8 -> int32
  EXPECT_EQ(layers.at("qconv")->widths.weight_bits, 8);
  EXPECT_EQ(layers.at("qconv")->widths.accumulator_bits, 32);
  EXPECT_EQ(layers.at("quantize")->vector_ops, 4u * 512);
  EXPECT_EQ(layers.at("qmatmul")->macs, 512u * 16);
  EXPECT_EQ(layers.at("out")->macs, 16u * 10);
  EXPECT_TRUE(workload.skipped_nodes().empty());
  EXPECT_EQ(workload.total_macs(), 8u * 8 * 8 * 27 + 512u * 16 + 16u * 10);
}

// A symbolic dimension shared by several inputs (`sequence`) is bound once: pinning one input pins the
// others, and two pins that disagree are refused naming both inputs. A dimension named like the batch is the
// batch wherever it is (here second, as in a sequence-first layout).
TEST(OnnxLowering, BindsASymbolSharedBySeveralInputsOnce) {
  OnnxGraph g;
  g.named_input("tokens", {0, 0, 32}, {"batch_size", "sequence", ""});
  g.named_input("bias", {0, 0, 32}, {"batch_size", "sequence", ""});
  g.named_input("memory", {0, 0, 32}, {"memory_length", "batch", ""});
  g.weights("w", {32, 32});
  g.node("Add", {"tokens", "bias"}, {"sum"});
  g.node("MatMul", {"sum", "w"}, {"q"});
  g.node("MatMul", {"memory", "w"}, {"m"});
  const std::string path = g.save("ergon_shared_symbols.onnx");
  OnnxImportOptions options;
  add_input_shape(options, "tokens=1x12x32");
  add_input_shape(options, "memory=7x1x32");
  const Workload workload = load_onnx_workload(path, options);
  const auto layers = layers_by_name(workload);
  EXPECT_EQ(layers.at("q")->macs, 12u * 32 * 32);  // bias took tokens' sequence length
  EXPECT_EQ(layers.at("m")->macs, 7u * 32 * 32);
  OnnxImportOptions unpinned_memory;
  add_input_shape(unpinned_memory, "tokens=1x12x32");
  try {
    load_onnx_workload(path, unpinned_memory);  // memory_length is free: refused, naming it
    FAIL() << "expected a refusal";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("'memory_length'"), std::string::npos) << error.what();
  }
  OnnxImportOptions disagreeing = options;
  add_input_shape(disagreeing, "bias=1x10x32");
  try {
    load_onnx_workload(path, disagreeing);
    FAIL() << "expected a refusal";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("'tokens'"), std::string::npos) << message;
    EXPECT_NE(message.find("bias"), std::string::npos) << message;
    EXPECT_NE(message.find("'sequence'"), std::string::npos) << message;
  }
}

// LSTM, 3 steps, 8 inputs, 4 hidden units, no initial state: one input projection for all steps, then a
// recurrent fc for steps 1 and 2 and a cell per step.
TEST(OnnxLowering, UnrollsRecurrentLayersOverTheirSteps) {
  OnnxGraph g;
  g.input("audio", {1, 3, 8});  // [batch, steps, features]; the LSTM reads [steps, batch, features]
  auto* steps_first = g.node("Transpose", {"audio"}, {"x"});
  OnnxGraph::ints(steps_first, "perm", {1, 0, 2});
  g.weights("w", {1, 16, 8});
  g.weights("r", {1, 16, 4});
  auto* lstm = g.node("LSTM", {"x", "w", "r"}, {"y", "y_h"});
  OnnxGraph::integer(lstm, "hidden_size", 4);
  const Workload workload = load_onnx_workload(g.save("ergon_lstm.onnx"));
  EXPECT_EQ(count_op(workload, OpKind::kFullyConnected), 2u);
  EXPECT_EQ(count_op(workload, OpKind::kElementwise), 3u);
  EXPECT_EQ(workload.total_macs(), 3u * 16 * 8 + 2u * 16 * 4);
  EXPECT_EQ(workload.total_vector_ops(), 3u * 13 * 4);
}

TEST(OnnxLowering, CountsElementwiseAndReductionOperations) {
  OnnxGraph g;
  g.input("x", {1, 4, 8, 8});
  g.weights("scale", {1});
  g.node("Div", {"x", "scale"}, {"scaled"});  // not after a conv: its own layer
  auto* reduce = g.node("ReduceMean", {"scaled"}, {"mean"});
  OnnxGraph::ints(reduce, "axes", {2, 3});
  auto* lrn = g.node("LRN", {"x"}, {"normalised"});
  OnnxGraph::integer(lrn, "size", 5);
  g.node("HardSigmoid", {"normalised"}, {"gate"});
  g.floats("roi", {});
  g.floats("scales", {1, 1, 2, 2});
  g.node("Resize", {"gate", "roi", "scales"}, {"up"});
  const Workload workload = load_onnx_workload(g.save("ergon_elementwise.onnx"));
  const auto layers = layers_by_name(workload);
  EXPECT_EQ(layers.at("scaled")->op, OpKind::kElementwise);
  EXPECT_EQ(layers.at("scaled")->vector_ops, 256u);
  EXPECT_EQ(layers.at("mean")->op, OpKind::kGlobalAvgPool);
  EXPECT_EQ(layers.at("normalised")->vector_ops, 256u * (5 + 3));
  EXPECT_EQ(layers.at("gate")->op, OpKind::kActivation);
  EXPECT_EQ(layers.at("up")->op, OpKind::kUpsample);
  EXPECT_EQ(layers.at("up")->output_shape, (TensorShape{4, 16, 16}));
}

TEST(OnnxLowering, LeavesOutInputsNoLayerReads) {
  OnnxGraph g;
  g.input("x", {1, 2, 4, 4});
  g.input("unused", {1, 1});
  g.node("Relu", {"x"}, {"y"});
  const OnnxImport imported = import_onnx(g.save("ergon_unused_input.onnx"));
  ASSERT_EQ(imported.notes.size(), 1u);
  EXPECT_EQ(imported.notes[0], "input 'unused' is read by no lowered layer; left out");
}

// The same network on a row-stationary and on a systolic array: pooling comparisons are vector_ops on
// both, so the MAC totals agree with each other and with the workload's.
TEST(OnnxLowering, MacsDoNotDependOnTheAccelerator) {
  const Workload workload = load_workload(test::source_dir() + "/workloads/alexnet.yaml");
  const EnergyTable table = load_energy_table(test::source_dir() + "/power/tables/cnnergy_65nm.yaml");
  SimulationOptions options;
  options.batch = 4;
  std::vector<SimulationResult> results;
  for (const char* config : {"eyeriss", "edge_tpu"}) {
    const AcceleratorConfig accelerator =
        load_accelerator_config(test::source_dir() + "/configs/" + std::string(config) + ".yaml");
    results.push_back(Simulation(accelerator, table, workload, options).run());
  }
  EXPECT_EQ(results[0].total.macs, 4 * workload.total_macs());
  EXPECT_EQ(results[1].total.macs, 4 * workload.total_macs());
  EXPECT_EQ(results[0].total.vector_ops, 4 * workload.total_vector_ops());
  EXPECT_EQ(results[1].total.vector_ops, 4 * workload.total_vector_ops());
  EXPECT_GT(workload.total_vector_ops(), 0u);
}

}  // namespace
}  // namespace ergon
