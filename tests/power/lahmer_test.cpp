// Lahmer et al.'s model: the equations on hand-computed layers, Table III's gaps reported, and the
// eq. 6 fitting procedure recovering known parameters.
#include "power/estimators/lahmer.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "common/input_error.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

std::string table3() {
  return test::source_dir() + "/reference/jetson/lahmer_2022_table3.yaml";
}

TEST(Lahmer, Table3ParametersAreLoadedAsPrinted) {
  const LahmerBoard tx2 = load_lahmer_board(table3(), "tx2");
  EXPECT_DOUBLE_EQ(tx2.a_c, 2.6727e-08);
  EXPECT_DOUBLE_EQ(tx2.b_c, 1.21334e-10);
  EXPECT_FALSE(tx2.a_f.has_value());  // the paper gives none for TX2
  const LahmerBoard nx = load_lahmer_board(table3(), "xavier-nx");
  EXPECT_DOUBLE_EQ(*nx.a_f, 6.2454e-09);
  EXPECT_THROW(load_lahmer_board(table3(), "nano"), InputError);
}

TEST(Lahmer, EquationsOnAHandComputedLayer) {
  // 224x224x3 input, 64 3x3 kernels, stride 1: exact KCLC = 222^2 x 3 x 9 = 1,330,668.
  const ConvLoad conv{224, 224, 3, 64, 3, 3, 1, 1};
  EXPECT_DOUBLE_EQ(kernel_conv_load(conv, KclcForm::kExact), 1330668);
  EXPECT_DOUBLE_EQ(kernel_conv_load(conv, KclcForm::kApproximate), 224.0 * 224 * 27);
  const LahmerBoard tx2 = load_lahmer_board(table3(), "tx2");
  EXPECT_NEAR(lahmer_conv_energy_j(tx2, 1330668, 64), 1330668 * (2.6727e-08 + 64 * 1.21334e-10), 1e-15);
  EXPECT_NEAR(lahmer_conv_energy_j(tx2, 1330668, 64), 0.045898, 1e-6);
  EXPECT_NEAR(lahmer_fc_energy_j(6.2454e-09, 4096.0 * 1000), 0.025581, 1e-6);
}

TEST(Lahmer, EstimatesEveryConvAndFcLayerAndNamesTheGaps) {
  const Workload alexnet = load_workload(test::source_dir() + "/workloads/alexnet.yaml");
  const LahmerEstimate nx = estimate_lahmer(alexnet, load_lahmer_board(table3(), "xavier-nx"), KclcForm::kExact);
  EXPECT_EQ(nx.unmodelled_compute_layers, 0u);
  double sum = 0;
  for (const auto& layer : nx.layers) {
    sum += layer.energy_j;
    if (layer.op == "conv" || layer.op == "fc") {
      EXPECT_TRUE(layer.modelled) << layer.name;
    }
  }
  EXPECT_DOUBLE_EQ(nx.total_j, sum);
  const LahmerEstimate tx2 = estimate_lahmer(alexnet, load_lahmer_board(table3(), "tx2"), KclcForm::kExact);
  EXPECT_EQ(tx2.unmodelled_compute_layers, 3u);  // fc6-fc8: no a_f
  for (const auto& layer : tx2.layers) {
    if (layer.op == "fc") {
      EXPECT_NE(layer.note.find("no a_f"), std::string::npos);
    }
  }
}

TEST(Lahmer, FittingRecoversTheParametersOfNoiselessData) {
  std::vector<LahmerConvSample> conv;
  for (double ofm : {16.0, 32.0, 64.0, 128.0, 256.0}) {
    for (double kclc : {1e5, 4e5, 9e5, 2e6}) conv.push_back({kclc, ofm, kclc * (3e-8 + 2e-10 * ofm)});
  }
  std::vector<LahmerFcSample> fc;
  for (double clf : {1e5, 1e6, 4e6}) fc.push_back({clf, 5e-9 * clf});
  const LahmerFit fit = fit_lahmer(conv, fc);
  EXPECT_NEAR(fit.a_c, 3e-8, 1e-15);
  EXPECT_NEAR(fit.b_c, 2e-10, 1e-17);
  EXPECT_NEAR(fit.a_f, 5e-9, 1e-16);
  EXPECT_EQ(fit.slopes.size(), 5u);
  EXPECT_NEAR(fit.conv_fit.r_squared, 1.0, 1e-12);
  EXPECT_NEAR(fit.conv_fit.mape_pct, 0.0, 1e-9);
  EXPECT_THROW(fit_lahmer({conv.front()}, fc), std::invalid_argument);  // eq. 6 needs two ofm values
}

}  // namespace
}  // namespace ergon

namespace ergon {
namespace {

TEST(Lahmer, RunsOnEveryShippedWorkload) {
  const LahmerBoard nx = load_lahmer_board(table3(), "xavier-nx");
  std::size_t workloads = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(test::source_dir() + "/workloads")) {
    if (entry.path().extension() != ".yaml") continue;
    const LahmerEstimate estimate = estimate_lahmer(load_workload(entry.path().string()), nx, KclcForm::kExact);
    EXPECT_GT(estimate.total_j, 0) << entry.path();
    EXPECT_EQ(estimate.unmodelled_compute_layers, 0u) << entry.path();
    ++workloads;
  }
  EXPECT_GE(workloads, 21u);
}

}  // namespace
}  // namespace ergon
