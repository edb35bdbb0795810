#pragma once
// Renders a CNNergy estimate as a text table, JSON (versioned schema) or CSV.
#include <nlohmann/json.hpp>
#include <string>

#include "power/estimators/cnnergy.hpp"

namespace ergon {

inline constexpr int kCnnergyReportSchemaVersion = 1;

std::string cnnergy_table(const CnnergyEstimate& estimate);
nlohmann::ordered_json cnnergy_json(const CnnergyEstimate& estimate);
std::string cnnergy_csv(const CnnergyEstimate& estimate);

}  // namespace ergon
