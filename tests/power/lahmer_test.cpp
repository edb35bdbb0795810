// Lahmer et al.'s model: the equations on hand-computed layers, Table III's gaps reported, the eq. 6 fitting
// procedure recovering known parameters, KCLC's padding option, and the fit to a measurement CSV.
#include "power/estimators/lahmer.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "common/input_error.hpp"
#include "power/estimators/lahmer_measurements.hpp"
#include "power/estimators/lahmer_report.hpp"
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

namespace ergon {
namespace {

const LahmerLayerEstimate& layer_named(const LahmerEstimate& estimate, const std::string& name) {
  for (const auto& layer : estimate.layers) {
    if (layer.name == name) return layer;
  }
  throw std::out_of_range(name);
}

TEST(LahmerKclc, PaddingIgnoredByDefaultAndIncludedOnRequest) {
  // VGG-16 conv1_1: 224x224x3 input, 64 3x3 kernels, stride 1, padding 1 ("same"). By hand: eq. 2 as printed
  // counts (224 - 3)/1 + 1 = 222 positions per axis, 222^2 x 3 x 9 = 1,330,668; the layer computes 224^2
  // positions, 224^2 x 27 = 1,354,752. conv3_1: 56x56x128 input, (56 - 3 + 1)^2 x 128 x 9 = 3,359,232 against
  // 56^2 x 1152 = 3,612,672.
  const Workload vgg = load_workload(test::source_dir() + "/workloads/vgg16.yaml");
  const LahmerBoard nx = load_lahmer_board(table3(), "xavier-nx");
  const LahmerEstimate paper = estimate_lahmer(vgg, nx, KclcOptions{});
  const LahmerEstimate padded = estimate_lahmer(vgg, nx, KclcOptions{KclcForm::kExact, KclcPadding::kInclude});
  EXPECT_EQ(paper.kclc.padding, KclcPadding::kIgnore);  // the default is the paper's form
  EXPECT_DOUBLE_EQ(layer_named(paper, "conv1_1").load, 1330668);
  EXPECT_DOUBLE_EQ(layer_named(padded, "conv1_1").load, 1354752);
  EXPECT_DOUBLE_EQ(layer_named(paper, "conv3_1").load, 3359232);
  EXPECT_DOUBLE_EQ(layer_named(padded, "conv3_1").load, 3612672);
  EXPECT_DOUBLE_EQ(layer_named(padded, "fc6").load, layer_named(paper, "fc6").load);  // CLF has no padding
  EXPECT_GT(padded.total_j, paper.total_j);
  // The old entry point keeps the paper's form.
  EXPECT_DOUBLE_EQ(estimate_lahmer(vgg, nx, KclcForm::kExact).total_j, paper.total_j);
}

TEST(LahmerKclc, IncludedPaddingCountsTheOutputPositionsWithStride) {
  // 7x7, stride 2, padding 3 on 224 (ResNet conv1): floor((224 + 6 - 7)/2) + 1 = 112 positions per axis.
  const ConvLoad conv{224, 224, 3, 64, 7, 7, 2, 2, 6, 6};
  EXPECT_DOUBLE_EQ(kernel_conv_load(conv, KclcOptions{KclcForm::kExact, KclcPadding::kInclude}), 112.0 * 112 * 147);
  EXPECT_DOUBLE_EQ(kernel_conv_load(conv, KclcOptions{}), 109.5 * 109.5 * 147);  // as printed: no floor
  EXPECT_THROW(make_kclc_options(KclcForm::kApproximate, KclcPadding::kInclude), std::invalid_argument);
  EXPECT_THROW(kernel_conv_load(conv, KclcOptions{KclcForm::kApproximate, KclcPadding::kInclude}),
               std::invalid_argument);
}

std::string write_temp(const std::string& name, const std::string& content) {
  const auto path = test::unique_temp_path("ergon_lahmer_test_" + name);
  std::ofstream(path) << content;
  return path.string();
}

// A reproducible noise factor 1 + amplitude x u, u uniform in [-1, 1) from a 64-bit LCG (Knuth's MMIX constants).
class Noise {
 public:
  explicit Noise(double amplitude) : amplitude_(amplitude) {}
  double factor() {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    const double u = static_cast<double>(state_ >> 11) / 9007199254740992.0;  // [0, 1)
    return 1 + amplitude_ * (2 * u - 1);
  }

 private:
  double amplitude_;
  std::uint64_t state_ = 42;
};

constexpr double kAc = 3e-8, kBc = 2e-10, kAf = 5e-9;  // the generating parameters

// Measurement rows generated from kAc, kBc, kAf (exact KCLC, padding ignored) times the noise.
std::string generated_csv(double noise_amplitude) {
  Noise noise(noise_amplitude);
  std::string csv = "name,kind,i_size,ifm,ofm,ksize,stride,padding,o_size,energy_mj\n";
  for (int ofm : {16, 32, 64, 128, 256}) {
    for (int i_size : {14, 28, 56}) {
      for (int ksize : {1, 3}) {
        const double kclc = (i_size - ksize + 1.0) * (i_size - ksize + 1.0) * 32 * ksize * ksize;
        csv += fmt::format("c{}_{}_{},conv,{},32,{},{},1,{},,{:.17g}\n", ofm, i_size, ksize, i_size, ofm, ksize,
                           ksize / 2, kclc * (kAc + kBc * ofm) * noise.factor() * 1e3);
      }
    }
  }
  for (int inputs : {512, 4096}) {
    for (int outputs : {100, 1000}) {
      csv += fmt::format("f{}x{},fc,{},,,,,,{},{:.17g}\n", inputs, outputs, inputs, outputs,
                         inputs * outputs * kAf * noise.factor() * 1e3);
    }
  }
  return csv;
}

LahmerMeasuredFit fit_file(const std::string& path, const KclcOptions& kclc = {}) {
  return fit_lahmer_measurements(read_lahmer_measurements(path, kclc), path, kclc);
}

TEST(LahmerMeasurements, FitRecoversTheGeneratingParameters) {
  const std::string path = write_temp("noiseless.csv", generated_csv(0));
  const LahmerMeasuredFit exact = fit_file(path);
  EXPECT_EQ(exact.conv_rows, 30u);
  EXPECT_EQ(exact.fc_rows, 4u);
  EXPECT_NEAR(exact.fit.a_c / kAc, 1, 1e-9);
  EXPECT_NEAR(exact.fit.b_c / kBc, 1, 1e-9);
  EXPECT_NEAR(exact.fit.a_f / kAf, 1, 1e-9);
  EXPECT_NEAR(exact.conv_rmspe_pct, 0, 1e-6);
  ASSERT_EQ(exact.residuals.size(), 34u);
  EXPECT_EQ(exact.residuals.front().name, "c16_14_1");
  // With +-2 % uniform noise the parameters come back within a few per cent, and the RMSPE is about the noise's
  // (2 / sqrt(3) = 1.15 %).
  const std::string noisy_path = write_temp("noisy.csv", generated_csv(0.02));
  const LahmerMeasuredFit noisy = fit_file(noisy_path);
  EXPECT_NEAR(noisy.fit.a_c / kAc, 1, 0.05);
  EXPECT_NEAR(noisy.fit.b_c / kBc, 1, 0.05);
  EXPECT_NEAR(noisy.fit.a_f / kAf, 1, 0.03);
  EXPECT_GT(noisy.conv_rmspe_pct, 0.5);
  EXPECT_LT(noisy.conv_rmspe_pct, 2.5);
  EXPECT_GT(noisy.fit.conv_fit.r_squared, 0.99);
  std::filesystem::remove(path);
  std::filesystem::remove(noisy_path);
}

TEST(LahmerMeasurements, FittedParametersRoundTripThroughTheParameterFile) {
  const std::string csv = write_temp("round_trip.csv", generated_csv(0.02));
  const LahmerMeasuredFit fit = fit_file(csv);
  const std::string yaml = write_temp("round_trip.yaml", lahmer_parameters_yaml(fit, "my-board"));
  const LahmerBoard board = load_lahmer_board(yaml, "my-board");
  EXPECT_DOUBLE_EQ(board.a_c, fit.fit.a_c);
  EXPECT_DOUBLE_EQ(board.b_c, fit.fit.b_c);
  ASSERT_TRUE(board.a_f.has_value());
  EXPECT_DOUBLE_EQ(*board.a_f, fit.fit.a_f);
  EXPECT_EQ(board.fitted_kclc, "exact");
  EXPECT_EQ(board.fitted_kclc_padding, "ignore");
  // And the estimate prices a layer of the file as the fit's model does.
  const Workload vgg = load_workload(test::source_dir() + "/workloads/vgg16.yaml");
  const LahmerEstimate estimate = estimate_lahmer(vgg, board, KclcOptions{});
  EXPECT_EQ(estimate.unmodelled_compute_layers, 0u);
  EXPECT_NEAR(layer_named(estimate, "conv1_1").energy_j, 1330668 * (fit.fit.a_c + 64 * fit.fit.b_c), 1e-12);
  std::filesystem::remove(csv);
  std::filesystem::remove(yaml);
}

TEST(LahmerMeasurements, ShippedSyntheticExampleGivesBackTable3) {
  // tests/data/lahmer/synthetic_measurements.csv is generated from Table III's Xavier NX parameters with 3 %
  // Gaussian noise (make_synthetic_measurements.py beside it); it is not a measurement.
  const LahmerMeasuredFit fit = fit_file(test::data_dir() + "/lahmer/synthetic_measurements.csv");
  const LahmerBoard nx = load_lahmer_board(table3(), "xavier-nx");
  EXPECT_NEAR(fit.fit.a_c / nx.a_c, 1, 0.1);
  EXPECT_NEAR(fit.fit.b_c / nx.b_c, 1, 0.1);
  EXPECT_NEAR(fit.fit.a_f / *nx.a_f, 1, 0.05);
}

// The message of the InputError the CSV raises.
std::string csv_error(const std::string& name, const std::string& content) {
  const std::string path = write_temp(name, content);
  std::string message;
  try {
    fit_file(path);
  } catch (const InputError& error) {
    message = error.what();
  }
  std::filesystem::remove(path);
  return message;
}

TEST(LahmerMeasurements, BadFilesAreLocatedErrors) {
  const std::string header = "name,kind,i_size,ifm,ofm,ksize,stride,padding,o_size,energy_mj\n";
  const std::string good = "a,conv,14,8,16,3,1,0,,1.0\nb,conv,14,8,32,3,1,0,,2.0\n";
  const auto expect_error = [](const std::string& message, const std::vector<std::string>& parts) {
    EXPECT_FALSE(message.empty()) << "no error";
    for (const std::string& part : parts) EXPECT_NE(message.find(part), std::string::npos) << message;
  };
  expect_error(
      csv_error("missing.csv", "name,kind,i_size,ofm,ksize,stride,energy_mj\n" + std::string("a,conv,14,16,3,1,1\n")),
      {"missing.csv:2", "row 1", "'ifm'"});
  expect_error(csv_error("text.csv", header + good + "c,conv,14,abc,16,3,1,0,,1.0\n"),
               {"text.csv:4:", "row 3, column 'ifm'", "'abc' is not a number"});
  expect_error(csv_error("negative.csv", header + good + "c,conv,14,8,16,3,1,0,,-1.0\n"),
               {"negative.csv:4:", "row 3, column 'energy_mj'", "negative energy"});
  expect_error(csv_error("one_ofm.csv", header + "a,conv,14,8,16,3,1,0,,1.0\nb,conv,28,8,16,3,1,0,,4.0\n"),
               {"one_ofm.csv", "too few rows", "2 conv rows at 1 output-map count"});
  expect_error(csv_error("unknown.csv", "name,kind,i_size,ifm,ofms,ksize,stride,energy_mj\n"),
               {"unknown.csv:1:", "unknown column 'ofms'", "did you mean 'ofm'"});
  expect_error(csv_error("mega.csv", "name,kind,i_size,ifm,ofm,ksize,stride,energy_MJ\n"),
               {"mega.csv:1:", "unknown column 'energy_MJ'"});
  expect_error(csv_error("no_energy.csv", "name,kind,i_size,ifm,ofm,ksize,stride\n"), {"energy_j, energy_mj"});
  expect_error(csv_error("fc_kernel.csv", header + good + "f,fc,100,,,3,,,10,1.0\n"),
               {"fc_kernel.csv:4:", "row 3, column 'ksize'"});
  expect_error(csv_error("kind.csv", header + good + "f,pool,100,,,3,,,10,1.0\n"),
               {"row 3, column 'kind'", "'pool' is not conv or fc"});
  expect_error(csv_error("big_kernel.csv", header + "a,conv,3,8,16,5,1,0,,1.0\n"), {"row 1, column 'ksize'"});
  expect_error(csv_error("short.csv", header + "a,conv,14,8,16\n"), {"short.csv:2:", "row 1", "5 fields"});
  expect_error(csv_error("empty.csv", "# nothing\n"), {"empty.csv", "no header row"});
}

}  // namespace
}  // namespace ergon
