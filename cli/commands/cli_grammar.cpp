// The help every command shares (docs/cli.md, "Grammar"): options in the same groups everywhere, and
// defaults shown as a user would type them ("eyeriss", not the data folder's absolute path).
#include <map>
#include <string>

#include "cli/commands/commands.hpp"
#include "sim/data_paths.hpp"

namespace ergon {
namespace {

// Each option's group in --help, by its long name; options not listed stay under "OPTIONS".
const std::map<std::string, std::string>& option_groups() {
  static const std::map<std::string, std::string> groups = {
      {"--config", "Inputs"},
      {"--workload", "Inputs"},
      {"--set", "Inputs"},
      {"--mapping", "Inputs"},
      {"--scalesim-config", "Inputs"},
      {"--scalesim-topology", "Inputs"},
      {"--scalesim-gemm", "Inputs"},
      {"--measurements", "Inputs"},
      {"--models", "Inputs"},
      {"--input-shape", "Inputs"},
      {"--input-value", "Inputs"},
      {"--skip-unsupported", "Inputs"},
      {"--loop-trips", "Inputs"},
      {"--batch", "Simulation"},
      {"--fidelity", "Simulation"},
      {"--jobs", "Simulation"},
      {"--param", "Simulation"},
      {"--link", "Simulation"},
      {"--scheme", "Simulation"},
      {"--deadline-ms", "Simulation"},
      {"--out", "Outputs"},
      {"--format", "Outputs"},
      {"--trace", "Outputs"},
      {"--activity", "Outputs"},
      {"--activity-max-rows", "Outputs"},
      {"--max-output-mb", "Outputs"},
      {"--quiet", "Outputs"},
      {"--plot", "Outputs"},
      {"--plot-by", "Outputs"},
      {"--pareto", "Outputs"},
  };
  return groups;
}

std::string long_name(const CLI::Option& option) {
  return option.get_lnames().empty() ? std::string() : "--" + option.get_lnames()[0];
}

// A default that is a shipped file shows as its name: the help reads the same on every machine.
std::string default_as_typed(const CLI::Option& option) {
  const std::string shown = option.get_default_str();
  if (long_name(option) == "--config") return shown_shipped_name(ShippedPart::kConfig, shown);
  if (long_name(option) == "--workload") return shown_shipped_name(ShippedPart::kWorkload, shown);
  return shown;
}

// An --out given as "" is a mistake, not a print-only run (which leaves --out out).
CLI::Validator not_empty_folder() {
  return CLI::Validator(
      [](std::string& folder) { return folder.empty() ? std::string("--out is empty; give an output folder") : ""; },
      "");
}

bool is_conversion(const CLI::App& command) {
  return command.get_parent() != nullptr && command.get_parent()->get_name() == "import";
}

void apply_grammar(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    if (long_name(*option) == "--out" && !is_conversion(app)) option->check(not_empty_folder());
    const auto group = option_groups().find(long_name(*option));
    if (group != option_groups().end()) option->group(group->second);
    if (const std::string shown = default_as_typed(*option); shown != option->get_default_str()) {
      option->default_str(shown);
    }
  }
  for (CLI::App* subcommand : app.get_subcommands({})) apply_grammar(*subcommand);
}

}  // namespace

ERGON_REGISTER(CliPass, "grammar", CliPass{apply_grammar}, 30)

}  // namespace ergon
