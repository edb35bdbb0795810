#pragma once
// The last check before a report is written: every number in it is finite. JSON has no inf or NaN
// (nlohmann writes them as null), and a reader would take a null total for a missing one. Returns the
// path of the first offending value ("layers[3].energy_uj.dram"), or nullopt. It reports rather than
// throws: it runs after SystemC has switched stacks (see cli/commands/commands.hpp).
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace ergon {

std::optional<std::string> first_non_finite(const nlohmann::json& report);

}  // namespace ergon
