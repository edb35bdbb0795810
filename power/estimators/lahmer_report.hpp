#pragma once
// Renders a Lahmer estimate as a text table, JSON (versioned schema) or CSV, in the CNNergy report's shape,
// and a fit of the model to measurements.
#include <nlohmann/json.hpp>
#include <string>

#include "power/estimators/lahmer.hpp"
#include "power/estimators/lahmer_measurements.hpp"

namespace ergon {

inline constexpr int kLahmerReportSchemaVersion = 1;

std::string lahmer_table(const LahmerEstimate& estimate);
nlohmann::ordered_json lahmer_json(const LahmerEstimate& estimate);
std::string lahmer_csv(const LahmerEstimate& estimate);

// A fit to measurements: the parameters as a file of reference/jetson/lahmer_2022_table3.yaml's form (for
// `ergon estimate lahmer --parameters`), the fit's quality as JSON, and each row's residual as CSV.
std::string lahmer_parameters_yaml(const LahmerMeasuredFit& fit, const std::string& board);
nlohmann::ordered_json lahmer_measured_fit_json(const LahmerMeasuredFit& fit, const std::string& board);
std::string lahmer_residuals_csv(const LahmerMeasuredFit& fit);

}  // namespace ergon
