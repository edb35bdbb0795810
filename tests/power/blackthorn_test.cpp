// Blackthorn's fitter and profiler on functions whose shape is known: the right template and step width
// with few measurements, nested models that reproduce a 2-D function, and the models' JSON round trip.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "power/estimators/blackthorn/layer_models.hpp"
#include "tests/test_paths.hpp"

namespace ergon::blackthorn {
namespace {

TEST(BlackthornFitter, FindsAStepFunctionAndItsWidth) {
  std::size_t calls = 0;
  const FitResult fit = fit_curves(
      integer_grid(1, 1024), 1,
      [&](double x) {
        ++calls;
        return std::vector<double>{0.5 + std::floor(x / 64) * 0.25};
      },
      FitterSettings{});
  ASSERT_EQ(fit.outputs.size(), 1u);
  EXPECT_EQ(fit.outputs[0].kind, TemplateKind::kStep);
  EXPECT_DOUBLE_EQ(fit.outputs[0].width, 64);
  EXPECT_NEAR(fit.outputs[0].first, 0.5, 1e-9);
  EXPECT_NEAR(fit.outputs[0].second, 0.25, 1e-9);
  EXPECT_TRUE(fit.converged);
  EXPECT_EQ(calls, fit.measured.size());
  EXPECT_LE(calls, 16u);  // the paper: typically 8-14 per dimension
}

TEST(BlackthornFitter, FindsACeilingStepWhereAnArrayStepsAfterItsWidth) {
  // 64 filters fit a 64-column array in one pass, 65 need two: ceil, not eq. 1's floor.
  const FitResult fit = fit_curves(
      integer_grid(1, 512), 1, [](double x) { return std::vector<double>{0.2 + std::ceil(x / 64) * 0.5}; },
      FitterSettings{});
  EXPECT_EQ(fit.outputs[0].kind, TemplateKind::kCeilStep);
  EXPECT_DOUBLE_EQ(fit.outputs[0].width, 64);
  for (double x : {1.0, 64.0, 65.0, 128.0, 129.0, 512.0})
    EXPECT_NEAR(template_value(fit.outputs[0].kind, fit.outputs[0].first, fit.outputs[0].second, 64, x),
                0.2 + std::ceil(x / 64) * 0.5, 1e-9)
        << x;
}

TEST(BlackthornFitter, RelativeErrorsWeighSmallLatenciesAsMuchAsLargeOnes) {
  // A line through small values with one large, disturbed point: absolute least squares bends the line
  // towards the large point (large relative errors on the small ones); relative least squares does not.
  const std::vector<double> grid = {1, 2, 3, 4, 100};
  const auto measure = [](double x) { return std::vector<double>{x == 100 ? 150.0 : x}; };
  FitterSettings settings;
  settings.step_widths = {};  // the line only
  settings.max_measurements = 5;
  settings.min_measurements = 5;
  settings.outlier_threshold = 1e9;  // keep the disturbed point in the fit
  const FitResult absolute = fit_curves(grid, 1, measure, settings);
  settings.relative_error = true;
  const FitResult relative = fit_curves(grid, 1, measure, settings);
  const auto error_at_1 = [](const FitResult& f) { return std::abs(f.outputs[0].first + f.outputs[0].second - 1); };
  EXPECT_GT(error_at_1(absolute), 0.3);  // over 30 % off at x = 1
  EXPECT_LT(error_at_1(relative), 0.1);  // under 10 %
}

TEST(BlackthornFitter, ForcedTemplateStillMeasuresItsMinimum) {
  std::size_t calls = 0;
  const FitResult fit = fit_curves(integer_grid(1, 512), 1,
                                   [&](double x) {
                                     ++calls;
                                     return std::vector<double>{1 + std::ceil(x / 32)};
                                   },
                                   FitterSettings{}, {TemplateChoice{TemplateKind::kCeilStep, 32}});
  EXPECT_EQ(calls, FitterSettings{}.min_measurements);
  EXPECT_EQ(fit.outputs[0].kind, TemplateKind::kCeilStep);
  EXPECT_DOUBLE_EQ(fit.outputs[0].width, 32);
  EXPECT_NEAR(fit.outputs[0].second, 1, 1e-9);
}

TEST(BlackthornFitter, FindsALine) {
  const FitResult fit = fit_curves(
      integer_grid(1, 1024), 1, [](double x) { return std::vector<double>{0.01 * x + 2}; }, FitterSettings{});
  EXPECT_EQ(fit.outputs[0].kind, TemplateKind::kLinear);
  EXPECT_NEAR(fit.outputs[0].first, 0.01, 1e-12);
  EXPECT_NEAR(fit.outputs[0].second, 2, 1e-9);
}

TEST(BlackthornFitter, LeavesAnOutlierOut) {
  // A step function with one disturbed measurement (the paper's noisy kernels).
  const auto f = [](double x) { return 1.0 + std::floor(x / 128) * 0.5; };
  const FitResult fit = fit_curves(
      integer_grid(1, 1024), 1, [&](double x) { return std::vector<double>{x == 960 ? f(x) * 1.5 : f(x)}; },
      FitterSettings{});
  EXPECT_EQ(fit.outputs[0].kind, TemplateKind::kStep);
  EXPECT_DOUBLE_EQ(fit.outputs[0].width, 128);
  EXPECT_GE(fit.outliers, 1u);
}

TEST(BlackthornProfiler, NestedModelReproducesATwoDimensionalFunction) {
  const auto f = [](double k, double c) { return (0.1 + 0.002 * c) + std::floor(k / 32) * (0.05 + 0.001 * c); };
  const ProfileResult result = profile_dimensions(
      {{"filters", integer_grid(1, 512)}, {"channels", integer_grid(1, 512)}},
      [&](const std::vector<double>& x) { return f(x[0], x[1]); }, ProfileSettings{});
  EXPECT_EQ(result.model.kind, TemplateKind::kStep);
  EXPECT_DOUBLE_EQ(result.model.width, 32);  // the first fit's width, kept along the channels
  for (double k : {5.0, 100.0, 333.0, 511.0}) {
    for (double c : {3.0, 77.0, 400.0})
      EXPECT_NEAR(evaluate(result.model, {k, c}), f(k, c), 1e-6 * f(k, c)) << k << " " << c;
  }
  EXPECT_LT(result.measurements, 400u);  // far fewer than the 512 x 512 grid
}

TEST(BlackthornProfiler, CarriesTheStepWidthWhereAnInnerFitAloneCouldNotFindIt) {
  // At few channels the steps along the filters drown in a large offset: a fit there alone would pick
  // its own width. The first fit (at many channels) fixes 64, and every inner curve keeps it.
  const auto f = [](double k, double c) { return 5.0 + std::ceil(k / 64) * 0.002 * c; };
  const ProfileResult result = profile_dimensions(
      {{"filters", integer_grid(1, 512)}, {"channels", integer_grid(1, 512)}},
      [&](const std::vector<double>& x) { return f(x[0], x[1]); }, ProfileSettings{});
  EXPECT_EQ(result.model.kind, TemplateKind::kCeilStep);
  EXPECT_DOUBLE_EQ(result.model.width, 64);
  for (double k : {1.0, 64.0, 65.0, 300.0}) {
    for (double c : {2.0, 50.0, 512.0})
      EXPECT_NEAR(evaluate(result.model, {k, c}), f(k, c), 1e-3 * f(k, c)) << k << " " << c;
  }
}

Curve two_level_curve() {
  Curve inner;
  inner.kind = TemplateKind::kLinear;
  inner.dimension = 1;
  inner.first.constant = 0.5;
  inner.second.constant = 2;
  Curve curve;
  curve.kind = TemplateKind::kStep;
  curve.first.constant = 1;
  curve.second.curve = std::make_shared<const Curve>(inner);
  curve.width = 16;
  return curve;
}

TEST(BlackthornModels, SurviveAJsonRoundTrip) {
  BlackthornModels models;
  models.backend = "test";
  models.models.push_back(
      {LayerKind::kConv, 3, 1, {"filters", "channels"}, {1, 1}, {512, 512}, two_level_curve(), 42, true});
  const BlackthornModels back = models_from_json(nlohmann::json::parse(models_json(models).dump()));
  ASSERT_EQ(back.models.size(), 1u);
  LayerSpec layer{LayerKind::kConv, 10, 8, 8, 40, 3, 1};
  EXPECT_DOUBLE_EQ(predict_ms(back, layer), 1 + std::floor(40 / 16.0) * (0.5 * 10 + 2));
  layer.kernel = 5;
  EXPECT_THROW(predict_ms(back, layer), std::invalid_argument);
  EXPECT_THROW(models_from_json(nlohmann::json::parse(R"({"schema_version": 1})")), std::invalid_argument);
  nlohmann::json broken = models_json(models);
  broken["models"][0]["model"]["width"] = 12.5;  // widths are whole numbers
  EXPECT_THROW(models_from_json(broken), std::invalid_argument);
}

TEST(BlackthornModels, ALayerTheModelGivesNoPositiveLatencyIsNotCovered) {
  Curve line;  // -1 ms + 0.01 ms per filter: below zero under 100 filters
  line.first.constant = 0.01;
  line.second.constant = -1;
  BlackthornModels models;
  models.backend = "test";
  models.models.push_back({LayerKind::kConv,
                           1,
                           1,
                           {"filters", "channels", "width", "height"},
                           {1, 1, 1, 1},
                           {512, 512, 112, 112},
                           line,
                           4,
                           true});
  const Workload workload = parse_workload(YAML::Load(R"(
name: two 1x1 layers
source: hand-written test
layers:
  - {name: input, op: input, shape: [8, 7, 7]}
  - {name: small, op: conv, inputs: [input], filters: 50, kernel: 1}
  - {name: large, op: conv, inputs: [small], filters: 300, kernel: 1}
)"),
                                           "test");
  const BlackthornEstimate estimate = estimate_blackthorn(workload, models);
  EXPECT_FALSE(estimate.layers[1].modelled);
  EXPECT_NE(estimate.layers[1].note.find("not covered"), std::string::npos) << estimate.layers[1].note;
  EXPECT_TRUE(estimate.layers[2].modelled);
  EXPECT_DOUBLE_EQ(estimate.total_ms, 2.0);
  EXPECT_EQ(estimate.uncovered, 1u);
}

// Residual adds and global pooling have models over channels, width and height; a standalone activation
// is fused into the layer before (not counted as unmodelled); a grouped convolution is `groups` dense ones.
TEST(BlackthornModels, ElementWiseLayersGroupedConvolutionsAndFusedActivations) {
  Curve per_channel;  // 0.5 ms per channel (filters for the conv model)
  per_channel.first.constant = 0.5;
  BlackthornModels models;
  models.backend = "test";
  const std::vector<std::string> names = {"channels", "width", "height"};
  models.models.push_back({LayerKind::kAdd, 0, 0, names, {1, 1, 1}, {2048, 112, 112}, per_channel, 4, true});
  models.models.push_back({LayerKind::kGlobalAvgPool, 0, 0, names, {1, 1, 1}, {2048, 112, 112}, per_channel, 4, true});
  models.models.push_back({LayerKind::kConv,
                           3,
                           1,
                           {"filters", "channels", "width", "height"},
                           {1, 1, 3, 3},
                           {1024, 1024, 112, 112},
                           per_channel,
                           4,
                           true});
  const Workload workload = parse_workload(YAML::Load(R"(
name: residual block
source: hand-written test
layers:
  - {name: input, op: input, shape: [8, 7, 7]}
  - {name: grouped, op: conv, inputs: [input], filters: 8, kernel: 3, padding: 1, groups: 2}
  - {name: add, op: add, inputs: [grouped, input]}
  - {name: relu, op: activation, inputs: [add], function: relu}
  - {name: pool, op: global_avgpool, inputs: [relu]}
)"),
                                           "test");
  const BlackthornEstimate estimate = estimate_blackthorn(workload, models);
  ASSERT_EQ(estimate.layers.size(), 5u);
  EXPECT_DOUBLE_EQ(estimate.layers[1].latency_ms, 2 * 0.5 * 4);  // two groups of 4 filters each
  EXPECT_NE(estimate.layers[1].note.find("2 dense convolutions"), std::string::npos) << estimate.layers[1].note;
  EXPECT_DOUBLE_EQ(estimate.layers[2].latency_ms, 0.5 * 8);
  EXPECT_FALSE(estimate.layers[3].modelled);
  EXPECT_NE(estimate.layers[3].note.find("fused"), std::string::npos) << estimate.layers[3].note;
  EXPECT_DOUBLE_EQ(estimate.layers[4].latency_ms, 0.5 * 8);
  EXPECT_EQ(estimate.unmodelled, 0u);
  EXPECT_DOUBLE_EQ(estimate.total_ms, 12);

  // Models profiled before Ergon had an add model say so rather than guess.
  models.models.erase(models.models.begin());
  const BlackthornEstimate older = estimate_blackthorn(workload, models);
  EXPECT_FALSE(older.layers[2].modelled);
  EXPECT_NE(older.layers[2].note.find("profile again"), std::string::npos) << older.layers[2].note;
}

}  // namespace
}  // namespace ergon::blackthorn

namespace ergon::blackthorn {
namespace {

// Every shipped workload estimates without error: each layer is modelled or named as ignored.
TEST(BlackthornModels, EstimateEveryShippedWorkload) {
  BlackthornModels models;
  models.backend = "constant test models";
  for (const SubModelSpec& spec : default_sub_models(0.1)) {
    Curve curve;  // 0.001 ms per unit of the innermost dimension
    curve.first.constant = 0.001;
    models.models.push_back({spec.kind, spec.kernel, spec.stride, {}, {}, {}, curve, 0, true});
  }
  for (const auto& entry : std::filesystem::directory_iterator(test::source_dir() + "/workloads")) {
    if (entry.path().extension() != ".yaml") continue;
    const Workload workload = load_workload(entry.path().string());
    const BlackthornEstimate estimate = estimate_blackthorn(workload, models);
    EXPECT_GT(estimate.total_ms, 0) << entry.path();
    for (const auto& layer : estimate.layers) {
      EXPECT_TRUE(layer.modelled || !layer.note.empty() || layer.op == "input") << layer.name;
    }
  }
}

}  // namespace
}  // namespace ergon::blackthorn
