#pragma once
// Blackthorn's 1-D function fitter (seed 004, Sec. IV-B, Algorithm 1 FITTER1D): measure a layer along one
// dimension at as few points as possible, choosing each next point where the surviving template
// hypotheses disagree most (eqs. 2-3), pruning hypotheses by their error (eqs. 4-5, 9) and leaving out
// outliers (eqs. 6-7), until one template with one parameter set is left. Several outputs may share the
// measured points (the parameters of an inner model, Sec. IV-C); each keeps its own hypotheses.
#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "power/estimators/blackthorn/curve_model.hpp"

namespace ergon::blackthorn {

// The paper tunes alpha, beta, gamma, T_e, R_e, R_t and the outlier threshold by grid search and does not
// report them; these are ours (docs/blackthorn.md).
struct FitterSettings {
  std::vector<double> step_widths = default_step_widths();
  double alpha = 1, beta = 1, gamma = 1;  // eq. 2 weights of U, R and D
  double c_lin = 1, c_step = 2;           // eqs. 2-3 difficulty coefficients (the paper's)
  double tolerance = 0.01;                // T_e: a set within 1 % RMS of the points is never pruned
  double ratio_start = 50, ratio_decay = 5, ratio_floor = 1.5;  // R_e: linear decay per iteration (eq. 5)
  double template_ratio = 4;                                    // R_t (eq. 9)
  double outlier_threshold = 10;                                // thres (eq. 7)
  std::size_t min_points_for_outliers = 5;
  // A fit whose template is forced (one hypothesis from the start) still measures this many points, so
  // two unlucky points cannot set its parameters alone and outliers can be judged.
  std::size_t min_measurements = 5;
  std::size_t max_measurements = 14;
  // Fit and prune on errors relative to the measured value (sum of ((y - f) / y)^2) instead of eq. 4's
  // absolute ones: latencies span orders of magnitude across a dimension, and RMSPE is the measure the
  // paper reports. Only for measured latencies (the innermost fits); a parameter of an inner curve can
  // be zero or change sign, so outer fits stay absolute.
  bool relative_error = false;

  static std::vector<double> default_step_widths();  // 8, 12, ..., 512 (Sec. IV-B1)
};

struct FittedCurve {
  TemplateKind kind = TemplateKind::kLinear;
  double first = 0, second = 0, width = 0;
  double sse = 0;  // relative when FitterSettings::relative_error
};

struct FitResult {
  std::vector<FittedCurve> outputs;
  std::vector<double> measured;  // the x values measured, in order
  std::size_t outliers = 0;      // points left out of the final fits
  bool converged = false;        // false: stopped at max_measurements, best hypothesis kept
};

using MeasureFunction = std::function<std::vector<double>(double x)>;

// `grid`: the candidate values of the dimension, ascending. `forced`: per output, the template and step
// width the fit must use (an inner model's structure), or nullopt to choose among all.
FitResult fit_curves(const std::vector<double>& grid, std::size_t outputs, const MeasureFunction& measure,
                     const FitterSettings& settings, const std::vector<std::optional<TemplateChoice>>& forced = {});

}  // namespace ergon::blackthorn
