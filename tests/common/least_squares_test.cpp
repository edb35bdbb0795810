// Linear least squares: exact recovery, goodness-of-fit figures, and refused problems.
#include "common/least_squares.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <variant>

namespace ergon {
namespace {

TEST(LeastSquares, RecoversALineAndScoresIt) {
  std::vector<std::vector<double>> rows;
  std::vector<double> y;
  for (double x = 1; x <= 10; ++x) {
    rows.push_back({x, 1});
    y.push_back(3 * x + 2);
  }
  const LeastSquaresFit fit = fit_least_squares(rows, y);
  EXPECT_NEAR(fit.coefficients[0], 3, 1e-12);
  EXPECT_NEAR(fit.coefficients[1], 2, 1e-12);
  EXPECT_NEAR(fit.r_squared, 1, 1e-12);
  EXPECT_NEAR(fit.mape_pct, 0, 1e-9);
  EXPECT_EQ(fit.samples, 10u);
}

TEST(LeastSquares, ScoresAnImperfectFit) {
  // y = 0, 2 at x = 0, 1 and 4 at x = 2 fitted by a line through the origin: slope 2, exact; then perturb.
  const LeastSquaresFit fit = fit_least_squares({{1}, {2}, {3}}, {1.0, 2.0, 4.0});
  EXPECT_NEAR(fit.coefficients[0], (1 + 4 + 12) / 14.0, 1e-12);
  EXPECT_LT(fit.r_squared, 1);
  EXPECT_GT(fit.mape_pct, 0);
}

TEST(LeastSquares, HandlesRegressorsOfVeryDifferentScales) {
  std::vector<std::vector<double>> rows;
  std::vector<double> y;
  for (double ofm : {8.0, 16.0, 64.0, 512.0}) {
    rows.push_back({1 / ofm, 1});
    y.push_back(2.6727e-08 / ofm + 1.21334e-10);
  }
  const LeastSquaresFit fit = fit_least_squares(rows, y);
  EXPECT_NEAR(fit.coefficients[0], 2.6727e-08, 1e-20);
  EXPECT_NEAR(fit.coefficients[1], 1.21334e-10, 1e-22);
}

TEST(LeastSquares, RefusesIllPosedProblems) {
  EXPECT_THROW(fit_least_squares({{1, 1}}, {1.0}), std::invalid_argument);                      // too few samples
  EXPECT_THROW(fit_least_squares({{1, 2}, {2, 4}, {3, 6}}, {1, 2, 3}), std::invalid_argument);  // dependent
  EXPECT_THROW(fit_least_squares({{1}, {2}}, {1.0}), std::invalid_argument);                    // sizes differ
  EXPECT_THROW(fit_least_squares({{0}, {0}}, {1.0, 2.0}), std::invalid_argument);               // zero regressor
}

TEST(LeastSquares, SaysWhyASystemHasNoUniqueSolutionWithoutThrowing) {
  const auto reason_of = [](const std::vector<std::vector<double>>& rows, const std::vector<double>& y) {
    const auto result = try_fit_least_squares(rows, y);
    const auto* reason = std::get_if<std::string>(&result);
    return reason != nullptr ? *reason : std::string("solved");
  };
  EXPECT_EQ(reason_of({{1, 1}}, {1.0}), "1 observations for 2 coefficients");
  EXPECT_EQ(reason_of({{1, 2}, {2, 4}, {3, 6}}, {1, 2, 3}), "the regressors are linearly dependent");
  EXPECT_EQ(reason_of({{0}, {0}}, {1.0, 2.0}), "a regressor is zero everywhere");
  EXPECT_EQ(reason_of({{1, 0}, {1, 1}}, {1.0, 3.0}), "solved");
  EXPECT_THROW(try_fit_least_squares({{1}, {2}}, {1.0}), std::invalid_argument);  // malformed, not ill-posed
}

}  // namespace
}  // namespace ergon
