// Every shipped workload loads, and each network's MAC and parameter totals match the published
// figures in tests/data/workload_literature.yaml (sources cited there).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <filesystem>
#include <utility>

#include "network/workload.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

std::vector<std::string> shipped_workloads() {
  std::vector<std::string> paths;
  for (const auto* folder : {"/workloads", "/workloads/cnnergy"}) {
    for (const auto& entry : std::filesystem::directory_iterator(test::source_dir() + folder)) {
      if (entry.path().extension() == ".yaml") paths.push_back(entry.path().string());
    }
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

TEST(ShippedWorkloads, AllTwentySevenLoadWithMacs) {
  const auto paths = shipped_workloads();
  EXPECT_EQ(paths.size(), 27u);
  for (const auto& path : paths) {
    const Workload workload = load_workload(path);
    EXPECT_GT(workload.total_macs(), 0u) << path;
    EXPECT_FALSE(workload.source().empty()) << path;
  }
}

double relative_error(double value, double reference) {
  return std::fabs(value - reference) / reference;
}

// An entry gives the figures that are published: both, or (most transformers) only the parameters.
TEST(ShippedWorkloads, TotalsMatchTheLiterature) {
  const YAML::Node figures = YAML::LoadFile(test::data_dir() + "/workload_literature.yaml");
  ASSERT_EQ(figures.size(), 21u);
  std::size_t mac_figures = 0;
  for (const auto& entry : figures) {
    const std::string name = entry.first.as<std::string>();
    const YAML::Node& figure = entry.second;
    const Workload workload = load_workload(test::source_dir() + "/workloads/" + name + ".yaml");
    ASSERT_TRUE(figure["params"]) << name;
    EXPECT_FALSE(figure["source"].as<std::string>().empty()) << name;
    if (figure["macs"]) {
      ++mac_figures;
      const double macs = static_cast<double>(workload.total_macs());
      EXPECT_LE(relative_error(macs, figure["macs"].as<double>()), figure["macs_tolerance"].as<double>())
          << name << ": " << macs << " MACs vs " << figure["macs"].as<double>();
    }
    const double params = static_cast<double>(workload.total_params());
    EXPECT_LE(relative_error(params, figure["params"].as<double>()), figure["params_tolerance"].as<double>())
        << name << ": " << params << " parameters vs " << figure["params"].as<double>();
  }
  EXPECT_EQ(mac_figures, 16u);  // the 15 CNNs and ViT-B/16
}

// A decode step uses every weight once, for its one token: each projection's MACs are its weights (its
// parameters without the biases), and the rest are the attention products over the 128 cached positions. The
// prefill uses each block weight for its 128 tokens and the LM head for the last one.
TEST(ShippedWorkloads, TransformerStepsUseEachWeightOncePerToken) {
  for (const auto& [name, tokens] : {std::pair<const char*, std::uint64_t>{"gpt2_decode", 1}, {"gpt2_prefill", 128}}) {
    const Workload workload = load_workload(test::source_dir() + "/workloads/" + name + ".yaml");
    std::uint64_t attention_macs = 0, projections = 0;
    for (const Layer& layer : workload.layers()) {
      if (layer.op == OpKind::kMatMul) attention_macs += layer.macs;
      if (layer.op != OpKind::kConv && layer.op != OpKind::kFullyConnected) continue;
      ++projections;
      const bool conv = layer.op == OpKind::kConv;
      const std::uint64_t outputs = conv ? layer.conv().filters : layer.fully_connected().outputs;
      const bool bias = conv ? layer.conv().bias : layer.fully_connected().bias;
      const std::uint64_t weights = layer.params_count - (bias ? outputs : 0);
      EXPECT_EQ(layer.macs, weights * (layer.name == "lm_head" ? 1 : tokens)) << name << " " << layer.name;
    }
    EXPECT_EQ(projections, 12u * 4 + 1) << name;  // c_attn, c_proj, c_fc, mlp.c_proj per block, the LM head
    // Q K^T and scores x V: 12 blocks x 12 heads x 64 x 128 positions x the queries, twice.
    EXPECT_EQ(attention_macs, 2u * 12 * 12 * 64 * 128 * tokens) << name;
  }
}

TEST(ShippedWorkloads, CnnergyTablesKeepTheReferenceShapes) {
  const Workload alexnet = load_workload(test::source_dir() + "/workloads/cnnergy/alexnet.yaml");
  const Layer* conv2 = alexnet.find_layer("conv2");
  ASSERT_NE(conv2, nullptr);
  EXPECT_EQ(conv2->input_shapes[0], (TensorShape{48, 31, 31}));
  EXPECT_EQ(conv2->output_shape, (TensorShape{256, 27, 27}));
  EXPECT_EQ(conv2->batch, 2);
  EXPECT_NEAR(conv2->sparsity.ifmap, 0.387, 1e-12);
  EXPECT_EQ(alexnet.total_macs(), 724406816u);  // the grouped AlexNet of alexnet.yaml, too
  const Workload squeezenet = load_workload(test::source_dir() + "/workloads/cnnergy/squeezenet_v1_1.yaml");
  const Layer* conv1 = squeezenet.find_layer("conv1");
  ASSERT_NE(conv1, nullptr);
  EXPECT_EQ(conv1->output_shape.height, 113);  // 224 padded by 1.5 on each side, stride 2
}

}  // namespace
}  // namespace ergon
