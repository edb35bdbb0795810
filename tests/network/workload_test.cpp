#include "network/workload.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/test_paths.hpp"

namespace ergon {
namespace {

Workload load_text(const std::string& name, const std::string& layers, const std::string& extra = "") {
  const auto path = test::unique_temp_path("ergon_workload_test_" + name + ".yaml");
  std::ofstream(path) << "name: " << name << "\nsource: unit test\n" << extra << "layers:\n" << layers;
  return load_workload(path.string());
}

const Layer& layer(const Workload& workload, const std::string& name) {
  const Layer* found = workload.find_layer(name);
  EXPECT_NE(found, nullptr) << name;
  return *found;
}

TEST(ShapeInference, ConvWithStridePaddingAndGroups) {
  const Workload w = load_text("conv", R"(
  - {name: image, op: input, shape: [96, 27, 27]}
  - {name: conv2, op: conv, inputs: [image], filters: 256, kernel: 5, padding: 2, groups: 2}
  - {name: strided, op: conv, inputs: [image], filters: 8, kernel: 3, stride: 2}
)");
  const Layer& conv2 = layer(w, "conv2");
  EXPECT_EQ(conv2.output_shape, (TensorShape{256, 27, 27}));
  EXPECT_EQ(conv2.macs, 27ull * 27 * 256 * 5 * 5 * 48);  // AlexNet conv2: 48 channels per group
  EXPECT_EQ(conv2.params_count, 256ull * 5 * 5 * 48 + 256);
  EXPECT_EQ(layer(w, "strided").output_shape, (TensorShape{8, 13, 13}));
}

TEST(ShapeInference, DepthwiseSamePaddingAndDilation) {
  const Workload w = load_text("depthwise", R"(
  - {name: image, op: input, shape: [32, 15, 15]}
  - {name: dw, op: conv, inputs: [image], depthwise: true, kernel: 3, stride: 2, padding: same, bias: false, batchnorm: true}
  - {name: dilated, op: conv, inputs: [image], filters: 4, kernel: 3, dilation: 2}
  - {name: rect, op: conv, inputs: [image], filters: 4, kernel: [5, 3], padding: [1, 2, 0, 0]}
)");
  const Layer& dw = layer(w, "dw");
  EXPECT_EQ(dw.output_shape, (TensorShape{32, 8, 8}));  // ceil(15 / 2)
  EXPECT_EQ(dw.conv().groups, 32);
  EXPECT_EQ(dw.conv().window.padding.top, 1);
  EXPECT_EQ(dw.macs, 8ull * 8 * 32 * 9);
  EXPECT_EQ(dw.params_count, 32ull * 9 + 2 * 32);
  EXPECT_EQ(layer(w, "dilated").output_shape, (TensorShape{4, 11, 11}));  // extent 5
  EXPECT_EQ(layer(w, "rect").output_shape, (TensorShape{4, 14, 13}));     // 15+3-5+1, 15-3+1
}

TEST(ShapeInference, PoolingCeilModeAndGlobalPools) {
  const Workload w = load_text("pool", R"(
  - {name: image, op: input, shape: [64, 112, 112]}
  - {name: floor_pool, op: maxpool, inputs: [image], kernel: 3, stride: 2}
  - {name: ceil_pool, op: maxpool, inputs: [image], kernel: 3, stride: 2, ceil_mode: true}
  - {name: avg, op: avgpool, inputs: [image], kernel: 2}
  - {name: gap, op: global_avgpool, inputs: [avg]}
  - {name: fc, op: fc, inputs: [gap], outputs: 10}
)");
  EXPECT_EQ(layer(w, "floor_pool").output_shape, (TensorShape{64, 55, 55}));
  EXPECT_EQ(layer(w, "ceil_pool").output_shape, (TensorShape{64, 56, 56}));
  EXPECT_EQ(layer(w, "avg").output_shape, (TensorShape{64, 56, 56}));
  EXPECT_EQ(layer(w, "gap").output_shape, (TensorShape{64, 1, 1}));
  EXPECT_EQ(layer(w, "fc").macs, 640u);
  EXPECT_EQ(layer(w, "fc").params_count, 650u);
  EXPECT_EQ(w.total_macs(), 640u);
}

TEST(ShapeInference, ConcatSliceUpsampleMulAndActivation) {
  const Workload w = load_text("joins", R"(
  - {name: image, op: input, shape: [8, 4, 4]}
  - {name: upper, op: slice, inputs: [image], channels: [4, 8]}
  - {name: up, op: upsample, inputs: [upper], scale: 2}
  - {name: gap, op: global_avgpool, inputs: [image]}
  - {name: gate, op: activation, inputs: [gap], function: sigmoid}
  - {name: scaled, op: mul, inputs: [image, gate]}
  - {name: joined, op: concat, inputs: [scaled, image, upper]}
  - {name: last, op: add, inputs: [joined, joined]}
)");
  EXPECT_EQ(layer(w, "upper").output_shape, (TensorShape{4, 4, 4}));
  EXPECT_EQ(layer(w, "up").output_shape, (TensorShape{4, 8, 8}));
  EXPECT_EQ(layer(w, "scaled").output_shape, (TensorShape{8, 4, 4}));
  EXPECT_EQ(layer(w, "joined").output_shape, (TensorShape{20, 4, 4}));
  EXPECT_EQ(layer(w, "last").output_shape, (TensorShape{20, 4, 4}));
}

TEST(WorkloadGraph, TopologicalOrderIsDeterministicAndHonoursEdges) {
  // Written out of order: consumers before producers; ties go to the earlier-written layer.
  const Workload w = load_text("order", R"(
  - {name: join, op: add, inputs: [left, right]}
  - {name: right, op: conv, inputs: [image], filters: 4, kernel: 1}
  - {name: left, op: conv, inputs: [image], filters: 4, kernel: 1}
  - {name: image, op: input, shape: [3, 8, 8]}
)");
  std::vector<std::string> names;
  for (const auto& l : w.layers()) names.push_back(l.name);
  EXPECT_EQ(names, (std::vector<std::string>{"image", "right", "left", "join"}));
  EXPECT_EQ(boost::num_edges(w.graph()), 4u);
  for (auto [edge, end] = boost::edges(w.graph()); edge != end; ++edge) {
    EXPECT_LT(boost::source(*edge, w.graph()), boost::target(*edge, w.graph()));
  }
}

TEST(WorkloadGraph, IndependentLayersAllowSeveralComponents) {
  const std::string layers = R"(
  - {name: a, op: input, shape: [3, 8, 8]}
  - {name: conv_a, op: conv, inputs: [a], filters: 4, kernel: 3, batch: 4, sparsity: {ifmap: 0.25, ofmap: 0.5}}
  - {name: b, op: input, shape: [3, 8, 8], intermediate: true}
  - {name: conv_b, op: conv, inputs: [b], filters: 4, kernel: 3}
)";
  EXPECT_THROW(load_text("components", layers), InputError);
  const Workload w = load_text("components_ok", layers, "independent_layers: true\nbatch: 2\n");
  EXPECT_EQ(layer(w, "conv_a").batch, 4);
  EXPECT_EQ(layer(w, "conv_b").batch, 2);
  EXPECT_DOUBLE_EQ(layer(w, "conv_a").sparsity.ifmap, 0.25);
  EXPECT_DOUBLE_EQ(layer(w, "conv_a").sparsity.ofmap, 0.5);
}

}  // namespace
}  // namespace ergon
