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
  for (double k : {5.0, 100.0, 333.0, 511.0}) {
    for (double c : {3.0, 77.0, 400.0})
      EXPECT_NEAR(evaluate(result.model, {k, c}), f(k, c), 1e-6 * f(k, c)) << k << " " << c;
  }
  EXPECT_LT(result.measurements, 400u);  // far fewer than the 512 x 512 grid
}

TEST(BlackthornModels, SurviveAJsonRoundTrip) {
  Curve inner;
  inner.kind = TemplateKind::kLinear;
  inner.dimension = 1;
  inner.first.constant = 0.5;
  inner.second.constant = 2;
  Curve curve;
  curve.kind = TemplateKind::kStep;
  curve.first.constant = 1;
  curve.second.curve = std::make_shared<const Curve>(inner);
  curve.width.constant = 16;
  BlackthornModels models;
  models.backend = "test";
  models.models.push_back({LayerKind::kConv, 3, 1, {"filters", "channels"}, {1, 1}, {512, 512}, curve, 42, true});
  const BlackthornModels back = models_from_json(nlohmann::json::parse(models_json(models).dump()));
  ASSERT_EQ(back.models.size(), 1u);
  const LayerSpec layer{LayerKind::kConv, 10, 0, 40, 3, 1};
  EXPECT_DOUBLE_EQ(predict_ms(back, layer), 1 + std::floor(40 / 16.0) * (0.5 * 10 + 2));
  EXPECT_THROW(predict_ms(back, LayerSpec{LayerKind::kConv, 10, 0, 40, 5, 1}), std::invalid_argument);
  EXPECT_THROW(models_from_json(nlohmann::json::parse(R"({"schema_version": 1})")), std::invalid_argument);
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
