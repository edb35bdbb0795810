#pragma once
// The last check before a report is written: every number in it is finite. JSON has no inf or NaN
// (nlohmann writes them as null), and a reader would take a null total for a missing one; a CSV would
// hold "nan" or "-inf" where a plot or a spreadsheet expects a number. Each returns where the first
// offending value is, or nullopt. They report rather than throw: they run after SystemC has switched
// stacks (see cli/commands/commands.hpp).
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace ergon {

// The path of the first offending value ("layers[3].energy_uj.dram").
std::optional<std::string> first_non_finite(const nlohmann::json& report);

// The first field of a CSV text written as a non-finite number (nan, -nan, inf, -inf, infinity, any case),
// as "line 3, column savings_pct ('-nan')"; the column is named by the header (the first line).
std::optional<std::string> first_non_finite_csv(const std::string& csv_text);

}  // namespace ergon
