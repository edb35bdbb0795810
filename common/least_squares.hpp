#pragma once
// Linear least squares (Eigen): y ~ X b, with the goodness-of-fit figures the reports quote.
#include <cstddef>
#include <string>
#include <variant>
#include <vector>

namespace ergon {

struct LeastSquaresFit {
  std::vector<double> coefficients;  // one per column of X
  double r_squared = 0;              // 1 - SS_residual / SS_total (about the mean of y)
  double mape_pct = 0;               // mean |prediction - y| / |y| x 100, over the y != 0
  double rmse = 0;
  std::size_t samples = 0;

  double predict(const std::vector<double>& row) const;
};

// Ordinary least squares on the rows of X; there is no implicit intercept (add a column of ones for one).
// Throws std::invalid_argument when the sizes disagree, there are fewer samples than coefficients, or the
// columns are linearly dependent.
LeastSquaresFit fit_least_squares(const std::vector<std::vector<double>>& rows, const std::vector<double>& y);

// The same, for callers that expect systems without a unique solution (a fitter probing few points):
// the fit, or why there is none. Only malformed input (rows of different lengths) throws. Callers that
// run after SystemC should prefer this: an exception thrown once the kernel has switched coroutine
// stacks leaves AddressSanitizer's view of the main stack stale (google/sanitizers issue 189).
std::variant<LeastSquaresFit, std::string> try_fit_least_squares(const std::vector<std::vector<double>>& rows,
                                                                 const std::vector<double>& y);

// The figures of any predictions against observations.
void score_fit(LeastSquaresFit& fit, const std::vector<double>& predictions, const std::vector<double>& y);

}  // namespace ergon
