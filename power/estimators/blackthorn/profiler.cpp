#include "power/estimators/blackthorn/profiler.hpp"

#include <map>
#include <memory>
#include <optional>
#include <stdexcept>

namespace ergon::blackthorn {
namespace {

// A tree over dimensions 0..level-1 from one over 0..level: every curve along `level` becomes a
// constant; their templates and step widths, in leaf order, are returned in `choices`.
Parameter strip(const Parameter& p, std::size_t level, std::vector<std::optional<TemplateChoice>>& choices) {
  if (!p.curve) {
    choices.push_back(std::nullopt);
    return p;
  }
  if (p.curve->dimension == level) {
    choices.push_back(TemplateChoice{p.curve->kind, p.curve->width});
    return Parameter{};
  }
  Curve inner = *p.curve;
  inner.first = strip(inner.first, level, choices);
  inner.second = strip(inner.second, level, choices);
  return Parameter{0, std::make_shared<const Curve>(inner)};
}

Curve curve_of(const FittedCurve& fitted, std::size_t dimension) {
  Curve curve;
  curve.kind = fitted.kind;
  curve.dimension = dimension;
  curve.first.constant = fitted.first;
  curve.second.constant = fitted.second;
  curve.width = is_step(fitted.kind) ? fitted.width : 0;
  return curve;
}

class Profiler {
 public:
  Profiler(const std::vector<Dimension>& dimensions, const LatencyFunction& latency, const ProfileSettings& settings)
      : dimensions_(dimensions), latency_(latency), settings_(settings) {}

  Curve profile(std::size_t level, std::vector<double> coordinates, const Curve* skeleton) {
    return level == 0 ? profile_innermost(coordinates, skeleton) : profile_outer(level, coordinates, skeleton);
  }

  std::size_t measurements() const { return cache_.size(); }
  std::size_t fits() const { return fits_; }
  std::size_t fits_at_budget() const { return fits_at_budget_; }

 private:
  double measure(const std::vector<double>& coordinates) {
    const auto found = cache_.find(coordinates);
    if (found != cache_.end()) return found->second;
    return cache_[coordinates] = latency_(coordinates);
  }

  // The first fit along the innermost dimension chooses the template and step width; every later one
  // (at other outer coordinates) keeps them, so the outer curves describe the same steps everywhere.
  Curve profile_innermost(std::vector<double> coordinates, const Curve* skeleton) {
    std::vector<std::optional<TemplateChoice>> forced;
    if (skeleton != nullptr) forced.push_back(TemplateChoice{skeleton->kind, skeleton->width});
    const FitResult fit = fit_curves(
        dimensions_[0].grid, 1,
        [&](double x) {
          coordinates[0] = x;
          return std::vector<double>{measure(coordinates)};
        },
        settings_.innermost, forced);
    count(fit);
    return curve_of(fit.outputs[0], 0);
  }

  // The inner model's parameters, measured at points along `level`, each fitted by its own curve.
  Curve profile_outer(std::size_t level, std::vector<double> coordinates, const Curve* skeleton) {
    std::optional<Curve> inner_skeleton;
    std::vector<std::optional<TemplateChoice>> choices;
    if (skeleton != nullptr) {
      inner_skeleton = *strip(Parameter{0, std::make_shared<const Curve>(*skeleton)}, level, choices).curve;
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
    const std::size_t leaves = leaf_constants(inner_at(grid[(grid.size() - 1) * 15 / 16])).size();
    if (choices.empty()) choices.assign(leaves, std::nullopt);
    const FitResult fit = fit_curves(
        grid, leaves, [&](double x) { return leaf_constants(inner_at(x)); }, settings_.outer, choices);
    count(fit);
    std::vector<Parameter> curves;
    for (const FittedCurve& c : fit.outputs)
      curves.push_back(Parameter{0, std::make_shared<const Curve>(curve_of(c, level))});
    return replace_leaves(*inner_skeleton, curves);
  }

  const std::vector<Dimension>& dimensions_;
  const LatencyFunction& latency_;
  const ProfileSettings& settings_;
  std::map<std::vector<double>, double> cache_;
  std::size_t fits_ = 0, fits_at_budget_ = 0;

  void count(const FitResult& fit) {
    ++fits_;
    if (!fit.converged) ++fits_at_budget_;
  }
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
  result.fits = profiler.fits();
  result.fits_at_budget = profiler.fits_at_budget();
  return result;
}

std::vector<double> integer_grid(int low, int high) {
  std::vector<double> grid;
  for (int v = low; v <= high; ++v) grid.push_back(v);
  return grid;
}

}  // namespace ergon::blackthorn
