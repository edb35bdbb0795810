#include "power/estimators/blackthorn/profiler.hpp"

#include <map>
#include <memory>
#include <optional>
#include <stdexcept>

namespace ergon::blackthorn {
namespace {

// A tree over dimensions 0..level-1 from one over 0..level: every curve along `level` becomes a
// constant; their templates, in leaf order, are returned in `kinds`.
Parameter strip(const Parameter& p, std::size_t level, std::vector<std::optional<TemplateKind>>& kinds) {
  if (!p.curve) {
    kinds.push_back(std::nullopt);
    return p;
  }
  if (p.curve->dimension == level) {
    kinds.push_back(p.curve->kind);
    return Parameter{};
  }
  Curve inner = *p.curve;
  inner.first = strip(inner.first, level, kinds);
  inner.second = strip(inner.second, level, kinds);
  inner.width = strip(inner.width, level, kinds);
  return Parameter{0, std::make_shared<const Curve>(inner)};
}

class Profiler {
 public:
  Profiler(const std::vector<Dimension>& dimensions, const LatencyFunction& latency, const ProfileSettings& settings)
      : dimensions_(dimensions), latency_(latency), settings_(settings) {}

  Curve profile(std::size_t level, std::vector<double> coordinates, const Curve* skeleton) {
    return level == 0 ? profile_innermost(coordinates, skeleton) : profile_outer(level, coordinates, skeleton);
  }

  std::size_t measurements() const { return cache_.size(); }
  bool converged() const { return converged_; }

 private:
  double measure(const std::vector<double>& coordinates) {
    const auto found = cache_.find(coordinates);
    if (found != cache_.end()) return found->second;
    return cache_[coordinates] = latency_(coordinates);
  }

  Curve profile_innermost(std::vector<double> coordinates, const Curve* skeleton) {
    std::vector<std::optional<TemplateKind>> forced;
    FitterSettings settings = settings_.innermost;
    if (skeleton != nullptr) {
      forced.push_back(skeleton->kind);
      // Keep the first fit's step width, so the parameters fitted along the outer dimensions describe
      // the same steps everywhere.
      if (skeleton->kind == TemplateKind::kStep && skeleton->width.constant > 0 && !skeleton->width.curve) {
        settings.step_widths = {skeleton->width.constant};
      }
    }
    const FitResult fit = fit_curves(
        dimensions_[0].grid, 1,
        [&](double x) {
          coordinates[0] = x;
          return std::vector<double>{measure(coordinates)};
        },
        settings, forced);
    converged_ = converged_ && fit.converged;
    const FittedCurve& c = fit.outputs[0];
    Curve curve;
    curve.kind = c.kind;
    curve.dimension = 0;
    curve.first.constant = c.first;
    curve.second.constant = c.second;
    curve.width.constant = c.width;
    return curve;
  }

  // The inner model's parameters, measured at points along `level`, each fitted by its own curve.
  Curve profile_outer(std::size_t level, std::vector<double> coordinates, const Curve* skeleton) {
    std::optional<Curve> inner_skeleton;
    std::vector<std::optional<TemplateKind>> kinds;
    if (skeleton != nullptr) {
      std::vector<std::optional<TemplateKind>> stripped_kinds;
      inner_skeleton = *strip(Parameter{0, std::make_shared<const Curve>(*skeleton)}, level, stripped_kinds).curve;
      kinds = stripped_kinds;
    }
    std::map<double, Curve> inner_fits;
    const auto inner_at = [&](double x) -> const Curve& {
      auto found = inner_fits.find(x);
      if (found == inner_fits.end()) {
        coordinates[level] = x;
        found =
            inner_fits.emplace(x, profile(level - 1, coordinates, inner_skeleton ? &*inner_skeleton : nullptr)).first;
        if (!inner_skeleton) inner_skeleton = found->second;  // the first inner fit fixes the structure
      }
      return found->second;
    };
    const std::vector<double>& grid = dimensions_[level].grid;
    const std::size_t leaves = leaf_constants(inner_at(grid[(grid.size() - 1) / 16])).size();
    if (kinds.empty()) kinds.assign(leaves, std::nullopt);
    const FitResult fit = fit_curves(
        grid, leaves, [&](double x) { return leaf_constants(inner_at(x)); }, settings_.outer, kinds);
    converged_ = converged_ && fit.converged;
    std::vector<Parameter> curves;
    for (const FittedCurve& c : fit.outputs) {
      Curve curve;
      curve.kind = c.kind;
      curve.dimension = level;
      curve.first.constant = c.first;
      curve.second.constant = c.second;
      curve.width.constant = c.width;
      curves.push_back(Parameter{0, std::make_shared<const Curve>(curve)});
    }
    return replace_leaves(*inner_skeleton, curves);
  }

  const std::vector<Dimension>& dimensions_;
  const LatencyFunction& latency_;
  const ProfileSettings& settings_;
  std::map<std::vector<double>, double> cache_;
  bool converged_ = true;
};

}  // namespace

ProfileResult profile_dimensions(const std::vector<Dimension>& dimensions, const LatencyFunction& latency,
                                 const ProfileSettings& settings) {
  if (dimensions.empty()) throw std::invalid_argument("profile at least one dimension");
  std::vector<double> start;
  for (const Dimension& d : dimensions) {
    if (d.grid.size() < 2) throw std::invalid_argument("dimension " + d.name + " needs two or more values");
    start.push_back(d.grid.front());
  }
  Profiler profiler(dimensions, latency, settings);
  ProfileResult result;
  result.model = profiler.profile(dimensions.size() - 1, start, nullptr);
  result.measurements = profiler.measurements();
  result.converged = profiler.converged();
  return result;
}

std::vector<double> integer_grid(int low, int high) {
  std::vector<double> grid;
  for (int v = low; v <= high; ++v) grid.push_back(v);
  return grid;
}

}  // namespace ergon::blackthorn
