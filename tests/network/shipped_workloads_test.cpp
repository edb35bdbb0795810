// Every shipped workload loads, and each network's MAC and parameter totals match the published
// figures in tests/data/workload_literature.yaml (sources cited there).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <filesystem>

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

TEST(ShippedWorkloads, AllTwentyOneLoadWithMacs) {
  const auto paths = shipped_workloads();
  EXPECT_EQ(paths.size(), 21u);
  for (const auto& path : paths) {
    const Workload workload = load_workload(path);
    EXPECT_GT(workload.total_macs(), 0u) << path;
    EXPECT_FALSE(workload.source().empty()) << path;
  }
}

double relative_error(double value, double reference) {
  return std::fabs(value - reference) / reference;
}

TEST(ShippedWorkloads, TotalsMatchTheLiterature) {
  const YAML::Node figures = YAML::LoadFile(test::data_dir() + "/workload_literature.yaml");
  ASSERT_EQ(figures.size(), 15u);
  for (const auto& entry : figures) {
    const std::string name = entry.first.as<std::string>();
    const YAML::Node& figure = entry.second;
    const Workload workload = load_workload(test::source_dir() + "/workloads/" + name + ".yaml");
    const double macs = static_cast<double>(workload.total_macs());
    const double params = static_cast<double>(workload.total_params());
    EXPECT_LE(relative_error(macs, figure["macs"].as<double>()), figure["macs_tolerance"].as<double>())
        << name << ": " << macs << " MACs vs " << figure["macs"].as<double>();
    EXPECT_LE(relative_error(params, figure["params"].as<double>()), figure["params_tolerance"].as<double>())
        << name << ": " << params << " parameters vs " << figure["params"].as<double>();
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
