// Blackthorn from measured latencies (a CSV, as from a Jetson) and the fitter's check on full sweeps:
// the file's format and located errors, the measure-and-append loop reaching the same models as a
// direct backend, and the sweep errors of a known function.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>

#include "common/input_error.hpp"
#include "power/estimators/blackthorn/measured_latencies.hpp"
#include "power/estimators/blackthorn/sweep_check.hpp"
#include "tests/test_paths.hpp"

namespace ergon::blackthorn {
namespace {

std::string write_csv(const std::string& name, const std::string& text) {
  const std::string path = (test::unique_temp_path(name)).string();
  std::ofstream(path) << text;
  return path;
}

std::string error_of(const std::string& text) {
  try {
    MeasuredLatencyBackend backend(write_csv("blackthorn_bad.csv", text));
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

TEST(BlackthornMeasurements, ReadTheMedianOfRepeatedRows) {
  const std::string path =
      write_csv("blackthorn_measured.csv",
                "# TensorRT on a board\n"
                "kind,kernel,stride,filters,channels,width,height,inputs,outputs,padding,latency_ms\n"
                "conv,3,1,64,32,56,56,,,1,0.50\n"
                "conv,3,1,64,32,56,56,,,1,0.70\n"
                "conv,3,1,64,32,56,56,,,1,0.52\n"
                "fc,,,,,,,9216,4096,,1.25\n");
  MeasuredLatencyBackend backend(path);
  EXPECT_EQ(backend.layers(), 2u);
  LayerSpec conv{LayerKind::kConv, 32, 56, 56, 64, 3, 1};
  conv.padding = 1;
  EXPECT_DOUBLE_EQ(backend.latency_ms(conv), 0.52);
  LayerSpec fc;
  fc.kind = LayerKind::kFullyConnected;
  fc.inputs = 9216;
  fc.outputs = 4096;
  EXPECT_DOUBLE_EQ(backend.latency_ms(fc), 1.25);
  conv.filters = 65;
  EXPECT_THROW(backend.latency_ms(conv), MissingMeasurement);
}

TEST(BlackthornMeasurements, LocateEveryMalformedRow) {
  const std::string header = "kind,kernel,stride,filters,channels,width,height,latency_ms\n";
  EXPECT_NE(error_of("kind,latency,kernel\n").find(":1:2: latency: unknown column"), std::string::npos)
      << error_of("kind,latency,kernel\n");
  EXPECT_NE(error_of(header + "conv,3,1,64,32,56,,0.5\n").find(":2:7: height: a conv layer needs it"),
            std::string::npos);
  EXPECT_NE(error_of(header + "conv,3,1,64,32,56,56,-1\n").find("latency_ms"), std::string::npos);
  EXPECT_NE(error_of(header + "conv,3,1,64,32,56,56,0\n").find("above zero"), std::string::npos);
  EXPECT_NE(error_of(header + "conv,3,1,64.5,32,56,56,1\n").find("filters: '64.5' is not a whole number"),
            std::string::npos);
  EXPECT_NE(error_of(header + "lstm,3,1,64,32,56,56,1\n").find("kind: 'lstm'"), std::string::npos);
  EXPECT_NE(error_of(header + "conv,3,1,64,32\n").find("5 fields where the header has 8"), std::string::npos);
  EXPECT_NE(error_of("kind,kernel,stride,filters,channels,width,height,padding,latency_ms\nconv,3,1,4,4,9,9,0,1\n")
                .find("profiled with padding 1"),
            std::string::npos);
  EXPECT_NE(error_of("# only a comment\n").find("no header row"), std::string::npos);
  // Adds and global pooling have no kernel or stride: giving one is an error, leaving them empty is not.
  EXPECT_NE(error_of(header + "add,1,1,,64,7,7,0.5\n").find(":2:2: kernel: a add layer has none"), std::string::npos)
      << error_of(header + "add,1,1,,64,7,7,0.5\n");
  EXPECT_EQ(error_of(header + "add,,,,64,7,7,0.5\nglobal_avgpool,,,,2048,7,7,0.1\n"), "");
}

// The loop a board script runs: profile, measure the requested layer, append, profile again. It ends
// with the models a backend answering directly gives.
TEST(BlackthornMeasurements, TheMeasureAndAppendLoopReachesTheDirectModels) {
  const auto latency = [](const LayerSpec& l) { return 0.05 + std::ceil(l.outputs / 32.0) * 1e-5 * l.inputs; };
  SubModelSpec spec{
      LayerKind::kFullyConnected, 0, 0, {{"outputs", integer_grid(1, 200)}, {"inputs", integer_grid(1, 300)}}};
  struct Direct : ILatencyBackend {
    std::function<double(const LayerSpec&)> f;
    double latency_ms(const LayerSpec& l) override { return f(l); }
    std::string describe() const override { return "direct"; }
  } direct;
  direct.f = latency;
  const SubModel expected = profile_sub_model(spec, direct, ProfileSettings{});

  const std::string path = write_csv("blackthorn_loop.csv", measurement_csv_header());
  std::size_t rounds = 0;
  for (;; ++rounds) {
    ASSERT_LT(rounds, 1000u);
    MeasuredLatencyBackend measured(path);
    try {
      const SubModel model = profile_sub_model(spec, measured, ProfileSettings{});
      EXPECT_EQ(to_json(model.curve).dump(), to_json(expected.curve).dump());
      EXPECT_EQ(model.measurements, expected.measurements);
      break;
    } catch (const MissingMeasurement& missing) {
      std::ofstream(path, std::ios::app) << measurement_csv_row(missing.layer(),
                                                                fmt::format("{:.17g}", latency(missing.layer())));
    }
  }
  EXPECT_EQ(rounds, expected.measurements);  // one new measurement per round
}

TEST(BlackthornSweeps, FitAKnownStepFunctionFromFewOfItsPoints) {
  const std::vector<SubModelSpec> specs = default_sub_models(0.25);
  const std::vector<SweepPlan> plans = plan_sweeps(specs, 3, 7);
  ASSERT_EQ(plans.size(), 3u);
  for (const SweepPlan& plan : plans) {
    EXPECT_EQ(specs[plan.sub_model].kind, LayerKind::kConv);
    const std::vector<LayerSpec> layers = sweep_layers(specs, plan);
    std::vector<double> truth;
    for (const LayerSpec& l : layers) truth.push_back(0.1 + std::ceil(l.filters / 16.0) * 0.01 * l.channels);
    const SweepCheck check = check_sweep(specs, plan, truth, ProfileSettings::relative_fits());
    EXPECT_EQ(check.grid.size(), layers.size());
    EXPECT_LT(check.measured.size(), check.grid.size());
    EXPECT_LT(check.mape_pct, 1e-6) << check.label;  // an exact template: every point on the curve
  }
}

}  // namespace
}  // namespace ergon::blackthorn
