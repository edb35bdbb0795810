#include "power/estimators/blackthorn/curve_fitter.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>
#include <variant>

#include "common/least_squares.hpp"

namespace ergon::blackthorn {
namespace {

constexpr TemplateKind kTemplates[] = {TemplateKind::kLinear, TemplateKind::kStep, TemplateKind::kCeilStep};

struct Hypothesis {
  TemplateKind kind = TemplateKind::kLinear;
  double width = 0;  // step
  bool alive = true;
  double first = 0, second = 0, sse = 0;

  double predict(double x) const { return template_value(kind, first, second, width, x); }
};

// The weight of a point's error: 1 for eq. 4's absolute errors, 1/|y| for relative ones.
double error_weight(double y, bool relative) {
  return relative ? 1.0 / std::max(std::abs(y), 1e-300) : 1.0;
}

// Weighted least squares of one hypothesis on the points in use; a step set whose points all share one
// step is fitted by its mean (its height is not yet determined).
void fit_hypothesis(Hypothesis& h, const std::vector<double>& x, const std::vector<double>& y, bool relative) {
  std::vector<std::vector<double>> rows;
  std::vector<double> targets;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double weight = error_weight(y[i], relative);
    const double steps = template_value(h.kind, 0, 1, h.width, x[i]);  // floor or ceil of x / w
    rows.push_back({weight * (h.kind == TemplateKind::kLinear ? x[i] : 1.0),
                    weight * (h.kind == TemplateKind::kLinear ? 1.0 : steps)});
    targets.push_back(weight * y[i]);
  }
  const auto solved = try_fit_least_squares(rows, targets);
  if (const auto* fit = std::get_if<LeastSquaresFit>(&solved)) {
    h.first = fit->coefficients[0];
    h.second = fit->coefficients[1];
  } else {
    double weighted = 0, weights = 0;
    for (std::size_t i = 0; i < y.size(); ++i) {
      const double weight = std::pow(error_weight(y[i], relative), 2);
      weighted += weight * y[i];
      weights += weight;
    }
    const double mean = weighted / weights;
    h.first = h.kind == TemplateKind::kLinear ? 0 : mean;
    h.second = h.kind == TemplateKind::kLinear ? mean : 0;
  }
  h.sse = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    h.sse += std::pow(error_weight(y[i], relative) * (y[i] - h.predict(x[i])), 2);  // eq. 4
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// One output's hypotheses and its view of the measured points.
class OutputFit {
 public:
  OutputFit(const FitterSettings& settings, const std::optional<TemplateChoice>& forced) : settings_(settings) {
    if (forced) {
      hypotheses_.push_back({forced->kind, forced->width});
      return;
    }
    hypotheses_.push_back({TemplateKind::kLinear, 0});
    for (TemplateKind kind : {TemplateKind::kStep, TemplateKind::kCeilStep}) {
      for (double width : settings.step_widths) hypotheses_.push_back({kind, width});
    }
  }

  void add(double x, double y) {
    x_.push_back(x);
    y_.push_back(y);
    outlier_.push_back(false);
  }

  void update(std::size_t iteration) {
    refit();
    if (x_.size() >= settings_.min_points_for_outliers) {
      detect_outliers();
      refit();
    }
    prune_sets(iteration);
    prune_templates();
  }

  // One hypothesis left (Algorithm 1), or all survivors predict the same curve: no measurement could
  // tell them apart by more than T_e's tolerance anywhere on the grid.
  bool converged() const { return alive_count() == 1 || agreed_; }

  void judge_agreement(const std::vector<double>& grid) {
    agreed_ = false;
    if (x_.size() < settings_.min_points_for_outliers) return;
    const FittedCurve chosen = best();
    const double allowed = settings_.tolerance * scale();
    std::vector<double> reference, size;  // the chosen curve on the grid, and what its errors are taken against
    for (double x : grid) {
      reference.push_back(template_value(chosen.kind, chosen.first, chosen.second, chosen.width, x));
      size.push_back(settings_.relative_error ? std::max(std::abs(reference.back()), 1e-300) : 1.0);
    }
    for (const Hypothesis& h : hypotheses_) {
      if (!h.alive) continue;
      for (std::size_t i = 0; i < grid.size(); ++i) {
        if (std::abs(h.predict(grid[i]) - reference[i]) / size[i] > allowed) return;
      }
    }
    agreed_ = true;
  }
  std::size_t outliers() const { return static_cast<std::size_t>(std::count(outlier_.begin(), outlier_.end(), true)); }
  bool line_alive() const {
    return any_alive([](TemplateKind kind) { return kind == TemplateKind::kLinear; });
  }
  bool step_alive() const { return any_alive(is_step); }

  // The surviving hypothesis with the least error. When both templates survive, the step one must beat
  // the line by R_t (eq. 9's ratio): its extra parameter buys a better fit of the measured points
  // without telling the steps apart from a slope.
  FittedCurve best() const {
    const Hypothesis* chosen = nullptr;
    const Hypothesis* line = nullptr;
    for (const Hypothesis& h : hypotheses_) {
      if (!h.alive) continue;
      if (h.kind == TemplateKind::kLinear) line = &h;
      if (chosen == nullptr || h.sse < chosen->sse * (1 - 1e-9) - 1e-300) chosen = &h;
    }
    if (line != nullptr && is_step(chosen->kind) && chosen->sse * settings_.template_ratio >= line->sse) {
      chosen = line;
    }
    return {chosen->kind, chosen->first, chosen->second, chosen->width, chosen->sse};
  }

  // U and R over the surviving step sets at x (eq. 2).
  void step_spread(double x, double& distinct, double& range) const {
    std::set<long long> values;
    double low = std::numeric_limits<double>::infinity(), high = -low;
    for (const Hypothesis& h : hypotheses_) {
      if (!h.alive || !is_step(h.kind)) continue;
      const double value = h.predict(x);
      values.insert(std::llround(value / (scale() * 1e-6)));
      low = std::min(low, value);
      high = std::max(high, value);
    }
    distinct = static_cast<double>(values.size());
    range = values.empty() ? 0 : high - low;
  }

 private:
  std::size_t alive_count() const {
    return static_cast<std::size_t>(
        std::count_if(hypotheses_.begin(), hypotheses_.end(), [](const Hypothesis& h) { return h.alive; }));
  }

  // The size of the values the errors are measured against: 1 for relative errors, else the points' RMS.
  template <typename KindTest>
  bool any_alive(KindTest test) const {
    return std::any_of(hypotheses_.begin(), hypotheses_.end(),
                       [&](const Hypothesis& h) { return h.alive && test(h.kind); });
  }

  double scale() const {
    if (settings_.relative_error) return 1;
    double sum = 0;
    for (double y : y_) sum += y * y;
    return std::max(std::sqrt(sum / static_cast<double>(std::max<std::size_t>(1, y_.size()))), 1e-300);
  }

  // T_e: the SSE of an RMS error of `tolerance` relative to the points' RMS.
  double error_threshold() const {
    return std::pow(settings_.tolerance * scale(), 2) * static_cast<double>(std::max<std::size_t>(1, x_.size()));
  }

  void refit() {
    std::vector<double> x, y;
    for (std::size_t i = 0; i < x_.size(); ++i) {
      if (!outlier_[i]) {
        x.push_back(x_[i]);
        y.push_back(y_[i]);
      }
    }
    for (Hypothesis& h : hypotheses_) {
      if (h.alive) fit_hypothesis(h, x, y, settings_.relative_error);
    }
  }

  // eqs. 6-7: a point is an outlier when most surviving sets find its error far from their median error.
  void detect_outliers() {
    std::vector<std::size_t> votes(x_.size(), 0);
    std::size_t voters = 0;
    for (const Hypothesis& h : hypotheses_) {
      if (!h.alive) continue;
      ++voters;
      std::vector<double> errors;
      for (std::size_t n = 0; n < x_.size(); ++n)
        errors.push_back(std::pow(error_weight(y_[n], settings_.relative_error) * (y_[n] - h.predict(x_[n])), 2));
      const double center = median(errors);
      std::vector<double> deviations;
      for (double e : errors) deviations.push_back(std::abs(e - center));
      const double mad = median(deviations);
      if (mad <= 0) continue;  // most points fit exactly: no basis for calling one an outlier
      for (std::size_t n = 0; n < x_.size(); ++n) votes[n] += deviations[n] / mad >= settings_.outlier_threshold;
    }
    for (std::size_t n = 0; n < x_.size(); ++n) {
      outlier_[n] = voters > 0 && static_cast<double>(votes[n]) / static_cast<double>(voters) > 0.5;
    }
  }

  // eq. 5 within each template, with R_e decaying linearly over the iterations.
  void prune_sets(std::size_t iteration) {
    const double ratio =
        std::max(settings_.ratio_floor, settings_.ratio_start - settings_.ratio_decay * static_cast<double>(iteration));
    for (TemplateKind kind : kTemplates) {
      double least = std::numeric_limits<double>::infinity();
      for (const Hypothesis& h : hypotheses_) {
        if (h.alive && h.kind == kind) least = std::min(least, h.sse);
      }
      for (Hypothesis& h : hypotheses_) {
        if (h.alive && h.kind == kind && h.sse > error_threshold() && h.sse > ratio * least) h.alive = false;
      }
    }
  }

  // eq. 9 between templates (with T_e as a floor, so templates that all fit are all kept).
  void prune_templates() {
    double least = std::numeric_limits<double>::infinity();
    for (TemplateKind kind : kTemplates) least = std::min(least, least_error(kind));
    for (TemplateKind kind : kTemplates) {
      const double error = least_error(kind);
      if (std::isfinite(error) && error > error_threshold() && error > settings_.template_ratio * least) {
        for (Hypothesis& h : hypotheses_) {
          if (h.kind == kind) h.alive = false;
        }
      }
    }
  }

  double least_error(TemplateKind kind) const {
    double least = std::numeric_limits<double>::infinity();
    for (const Hypothesis& h : hypotheses_) {
      if (h.alive && h.kind == kind) least = std::min(least, h.sse);
    }
    return least;
  }

  const FitterSettings& settings_;
  std::vector<Hypothesis> hypotheses_;
  std::vector<double> x_, y_;
  std::vector<bool> outlier_;
  bool agreed_ = false;
};

void normalise(std::vector<double>& values) {
  const auto [low, high] = std::minmax_element(values.begin(), values.end());
  const double lo = *low, span = *high - *low;
  for (double& v : values) v = span > 0 ? (v - lo) / span : 0;
}

// eqs. 2-3: the index of the next grid point to measure.
std::size_t next_point(const std::vector<double>& grid, const std::vector<bool>& measured,
                       const std::vector<OutputFit>& fits, const FitterSettings& s) {
  std::vector<std::size_t> candidates;
  for (std::size_t i = 0; i < grid.size(); ++i) {
    if (!measured[i]) candidates.push_back(i);
  }
  std::vector<double> distance;
  for (std::size_t i : candidates) {
    double nearest = std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < grid.size(); ++j) {
      if (measured[j]) nearest = std::min(nearest, std::abs(grid[i] - grid[j]));
    }
    distance.push_back(nearest);
  }
  std::vector<double> d_score = distance;
  normalise(d_score);
  std::vector<double> best(candidates.size(), 0);
  for (const OutputFit& fit : fits) {
    // A converged fit (one hypothesis left, short of min_measurements) spreads its points out as a line does.
    if (fit.converged() || fit.line_alive()) {
      for (std::size_t c = 0; c < candidates.size(); ++c) best[c] = std::max(best[c], d_score[c] * s.c_lin);
    }
    if (fit.converged() || !fit.step_alive()) continue;
    std::vector<double> u(candidates.size()), r(candidates.size());
    for (std::size_t c = 0; c < candidates.size(); ++c) fit.step_spread(grid[candidates[c]], u[c], r[c]);
    normalise(u);
    normalise(r);
    std::vector<double> combined(candidates.size());
    for (std::size_t c = 0; c < candidates.size(); ++c)
      combined[c] = s.alpha * u[c] + s.beta * r[c] + s.gamma * d_score[c];
    normalise(combined);
    for (std::size_t c = 0; c < candidates.size(); ++c) best[c] = std::max(best[c], combined[c] * s.c_step);
  }
  return candidates[static_cast<std::size_t>(std::max_element(best.begin(), best.end()) - best.begin())];
}

}  // namespace

std::vector<double> FitterSettings::default_step_widths() {
  std::vector<double> widths;
  for (int w = 8; w <= 512; w += 4) widths.push_back(w);
  return widths;
}

FitResult fit_curves(const std::vector<double>& grid, std::size_t outputs, const MeasureFunction& measure,
                     const FitterSettings& settings, const std::vector<std::optional<TemplateChoice>>& forced) {
  if (grid.size() < 2) throw std::invalid_argument("a dimension needs at least two candidate values");
  if (!forced.empty() && forced.size() != outputs) throw std::invalid_argument("one forced template per output");
  std::vector<OutputFit> fits;
  for (std::size_t o = 0; o < outputs; ++o) fits.emplace_back(settings, forced.empty() ? std::nullopt : forced[o]);
  FitResult result;
  std::vector<bool> measured(grid.size(), false);
  const auto take = [&](std::size_t index) {
    const std::vector<double> values = measure(grid[index]);
    if (values.size() != outputs) throw std::logic_error("a measurement returned the wrong number of outputs");
    for (std::size_t o = 0; o < outputs; ++o) fits[o].add(grid[index], values[o]);
    measured[index] = true;
    result.measured.push_back(grid[index]);
  };
  // Algorithm 1 starts at x = 64 and 960 of 1024: the same fractions of this grid. The high one first:
  // a nested model's structure is fixed by the first inner fit, made where layers are largest, so the
  // array's steps show rather than fixed overheads.
  const std::size_t low = (grid.size() - 1) / 16, high = (grid.size() - 1) * 15 / 16;
  take(high > low ? high : grid.size() - 1);
  take(low);
  for (std::size_t iteration = 0;; ++iteration) {
    for (OutputFit& fit : fits) {
      fit.update(iteration);
      fit.judge_agreement(grid);
    }
    result.converged = std::all_of(fits.begin(), fits.end(), [](const OutputFit& f) { return f.converged(); });
    const std::size_t taken = result.measured.size();
    if (result.converged && taken >= std::min(settings.min_measurements, grid.size())) break;
    if (taken >= std::min(settings.max_measurements, grid.size())) break;
    take(next_point(grid, measured, fits, settings));
  }
  for (const OutputFit& fit : fits) {
    result.outputs.push_back(fit.best());
    result.outliers += fit.outliers();
  }
  return result;
}

}  // namespace ergon::blackthorn
