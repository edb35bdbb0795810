#include "power/estimators/blackthorn/sweep_check.hpp"

#include <fmt/format.h>

#include <cmath>
#include <random>
#include <stdexcept>

namespace ergon::blackthorn {
namespace {

std::string sweep_label(const SubModelSpec& spec, const SweepPlan& plan) {
  std::string fixed;
  for (std::size_t d = 0; d < spec.dimensions.size(); ++d) {
    if (d == plan.dimension) continue;
    fixed += fmt::format("{}{} {:g}", fixed.empty() ? "" : ", ", spec.dimensions[d].name, plan.coordinates[d]);
  }
  return fmt::format("{} along {} ({})", sub_model_name(spec.kind, spec.kernel, spec.stride),
                     spec.dimensions[plan.dimension].name, fixed);
}

}  // namespace

std::vector<SweepPlan> plan_sweeps(const std::vector<SubModelSpec>& specs, std::size_t count, std::uint64_t seed) {
  std::vector<std::size_t> convs;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    if (specs[i].kind == LayerKind::kConv) convs.push_back(i);
  }
  if (convs.empty()) throw std::invalid_argument("no conv sub-model to sweep");
  std::mt19937_64 random(seed);
  std::vector<SweepPlan> plans;
  for (std::size_t n = 0; n < count; ++n) {
    SweepPlan plan;
    plan.sub_model = convs[std::uniform_int_distribution<std::size_t>(0, convs.size() - 1)(random)];
    const SubModelSpec& spec = specs[plan.sub_model];
    plan.dimension = std::uniform_int_distribution<std::size_t>(0, spec.dimensions.size() - 1)(random);
    for (const Dimension& d : spec.dimensions)
      plan.coordinates.push_back(d.grid[std::uniform_int_distribution<std::size_t>(0, d.grid.size() - 1)(random)]);
    plans.push_back(std::move(plan));
  }
  return plans;
}

std::vector<LayerSpec> sweep_layers(const std::vector<SubModelSpec>& specs, const SweepPlan& plan) {
  const SubModelSpec& spec = specs.at(plan.sub_model);
  std::vector<double> coordinates = plan.coordinates;
  std::vector<LayerSpec> layers;
  for (double x : spec.dimensions.at(plan.dimension).grid) {
    coordinates[plan.dimension] = x;
    layers.push_back(layer_at(spec, coordinates));
  }
  return layers;
}

SweepCheck check_sweep(const std::vector<SubModelSpec>& specs, const SweepPlan& plan,
                       const std::vector<double>& truth_ms, const FitterSettings& settings) {
  const SubModelSpec& spec = specs.at(plan.sub_model);
  SweepCheck check;
  check.plan = plan;
  check.label = sweep_label(spec, plan);
  check.grid = spec.dimensions.at(plan.dimension).grid;
  check.truth_ms = truth_ms;
  if (truth_ms.size() != check.grid.size()) throw std::invalid_argument("one ground-truth value per grid point");
  const FitResult fit = fit_curves(
      check.grid, 1,
      [&](double x) {
        const auto at = std::lower_bound(check.grid.begin(), check.grid.end(), x) - check.grid.begin();
        return std::vector<double>{truth_ms[static_cast<std::size_t>(at)]};
      },
      settings);
  check.fit = fit.outputs.at(0);
  check.measured = fit.measured;
  double absolute_pct = 0, absolute_ms = 0;
  for (std::size_t i = 0; i < check.grid.size(); ++i) {
    const double predicted =
        template_value(check.fit.kind, check.fit.first, check.fit.second, check.fit.width, check.grid[i]);
    const double pct = 100 * std::abs(predicted - truth_ms[i]) / truth_ms[i];
    absolute_pct += pct;
    absolute_ms += std::abs(predicted - truth_ms[i]);
    check.max_pe_pct = std::max(check.max_pe_pct, pct);
  }
  check.mape_pct = absolute_pct / static_cast<double>(check.grid.size());
  check.mae_ms = absolute_ms / static_cast<double>(check.grid.size());
  return check;
}

}  // namespace ergon::blackthorn
