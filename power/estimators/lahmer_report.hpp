#pragma once
// Renders a Lahmer estimate as a text table, JSON (versioned schema) or CSV, in the CNNergy report's shape.
#include <nlohmann/json.hpp>
#include <string>

#include "power/estimators/lahmer.hpp"

namespace ergon {

inline constexpr int kLahmerReportSchemaVersion = 1;

std::string lahmer_table(const LahmerEstimate& estimate);
nlohmann::ordered_json lahmer_json(const LahmerEstimate& estimate);
std::string lahmer_csv(const LahmerEstimate& estimate);

}  // namespace ergon
