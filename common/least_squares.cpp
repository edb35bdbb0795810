#include "common/least_squares.hpp"

#include <Eigen/Dense>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace ergon {

double LeastSquaresFit::predict(const std::vector<double>& row) const {
  if (row.size() != coefficients.size()) throw std::invalid_argument("a row with the wrong number of regressors");
  double value = 0;
  for (std::size_t i = 0; i < row.size(); ++i) value += row[i] * coefficients[i];
  return value;
}

void score_fit(LeastSquaresFit& fit, const std::vector<double>& predictions, const std::vector<double>& y) {
  const auto n = static_cast<double>(y.size());
  double mean = 0;
  for (double value : y) mean += value / n;
  double residual = 0, total = 0, relative = 0;
  std::size_t nonzero = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double error = predictions[i] - y[i];
    residual += error * error;
    total += (y[i] - mean) * (y[i] - mean);
    if (y[i] != 0) {
      relative += std::abs(error / y[i]);
      ++nonzero;
    }
  }
  fit.samples = y.size();
  fit.r_squared = total > 0 ? 1 - residual / total : (residual == 0 ? 1.0 : 0.0);
  fit.mape_pct = nonzero > 0 ? 100 * relative / static_cast<double>(nonzero) : 0;
  fit.rmse = y.empty() ? 0 : std::sqrt(residual / n);
}

namespace {

// Why a well-formed system has no unique solution, or "" when it has one.
std::string underdetermined_reason(const Eigen::MatrixXd& x, const Eigen::VectorXd& column_norms) {
  if (x.rows() < x.cols()) {
    return std::to_string(x.rows()) + " observations for " + std::to_string(x.cols()) + " coefficients";
  }
  for (Eigen::Index c = 0; c < column_norms.size(); ++c) {
    if (column_norms(c) == 0) return "a regressor is zero everywhere";
  }
  return "";
}

}  // namespace

std::variant<LeastSquaresFit, std::string> try_fit_least_squares(const std::vector<std::vector<double>>& rows,
                                                                 const std::vector<double>& y) {
  if (rows.size() != y.size()) throw std::invalid_argument("least squares: as many rows as observations needed");
  if (rows.empty()) return std::string("no observations");
  const std::size_t columns = rows.front().size();
  if (columns == 0) throw std::invalid_argument("least squares: no regressors");
  Eigen::MatrixXd x(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(columns));
  Eigen::VectorXd target(static_cast<Eigen::Index>(rows.size()));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (rows[r].size() != columns) throw std::invalid_argument("least squares: rows of different lengths");
    for (std::size_t c = 0; c < columns; ++c) {
      x(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = rows[r][c];
    }
    target(static_cast<Eigen::Index>(r)) = y[r];
  }
  // Scale the columns so regressors of very different magnitudes do not upset the rank decision.
  const Eigen::VectorXd scale = x.colwise().norm().transpose();
  if (std::string reason = underdetermined_reason(x, scale); !reason.empty()) return reason;
  for (Eigen::Index c = 0; c < scale.size(); ++c) x.col(c) /= scale(c);
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(x);
  if (qr.rank() < static_cast<Eigen::Index>(columns)) return std::string("the regressors are linearly dependent");
  const Eigen::VectorXd solution = qr.solve(target);
  LeastSquaresFit fit;
  for (std::size_t c = 0; c < columns; ++c) {
    fit.coefficients.push_back(solution(static_cast<Eigen::Index>(c)) / scale(static_cast<Eigen::Index>(c)));
  }
  std::vector<double> predictions;
  for (const auto& row : rows) predictions.push_back(fit.predict(row));
  score_fit(fit, predictions, y);
  return fit;
}

LeastSquaresFit fit_least_squares(const std::vector<std::vector<double>>& rows, const std::vector<double>& y) {
  auto result = try_fit_least_squares(rows, y);
  if (auto* reason = std::get_if<std::string>(&result)) throw std::invalid_argument("least squares: " + *reason);
  return std::get<LeastSquaresFit>(std::move(result));
}

}  // namespace ergon
