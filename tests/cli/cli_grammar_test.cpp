// One grammar over every command (docs/cli.md, "Grammar"), checked on the command line built from the
// registrations: a short option means one thing everywhere; every command that simulates takes --batch and
// --fidelity; every reporting command takes --format; every command shows one example that uses only its own
// options; no default shows a machine's path; --config and --workload take shipped names.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands/commands.hpp"
#include "sim/data_paths.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

struct Command {
  std::string path;  // "estimate cnnergy"
  CLI::App* app;
};

std::unique_ptr<CLI::App> built_app() {
  auto app = std::make_unique<CLI::App>("ergon");
  add_registered_commands(*app);
  return app;
}

void collect_leaves(CLI::App& app, const std::string& path, std::vector<Command>& leaves) {
  const std::vector<CLI::App*> subcommands = app.get_subcommands({});
  if (subcommands.empty() && !path.empty()) leaves.push_back({path, &app});
  for (CLI::App* subcommand : subcommands) {
    collect_leaves(*subcommand, path.empty() ? subcommand->get_name() : path + " " + subcommand->get_name(), leaves);
  }
}

std::vector<Command> leaf_commands(CLI::App& app) {
  std::vector<Command> leaves;
  collect_leaves(app, "", leaves);
  return leaves;
}

bool has_option(const CLI::App& command, const std::string& name) {
  for (const CLI::Option* option : command.get_options()) {
    if (option->check_name(name)) return true;
  }
  return false;
}

// Commands whose result is a file converted from another tool's, not a report.
bool is_conversion(const std::string& path) {
  return path.rfind("import ", 0) == 0;
}

TEST(CliGrammar, EveryCommandIsFound) {
  const auto app = built_app();
  const std::vector<Command> leaves = leaf_commands(*app);
  std::set<std::string> paths;
  for (const Command& command : leaves) paths.insert(command.path);
  for (const char* expected : {"run", "map", "sweep", "dvfs", "roofline", "configs", "workloads", "config show",
                               "estimate cnnergy", "import onnx"}) {
    EXPECT_TRUE(paths.count(expected)) << expected;
  }
}

TEST(CliGrammar, AShortOptionMeansOneThingInEveryCommand) {
  const auto app = built_app();
  std::map<std::string, std::map<std::string, std::string>> long_names_by_short;  // short -> long -> a command
  for (const Command& command : leaf_commands(*app)) {
    for (const CLI::Option* option : command.app->get_options()) {
      if (option->get_lnames().empty()) continue;
      for (const std::string& short_name : option->get_snames()) {
        long_names_by_short["-" + short_name]["--" + option->get_lnames()[0]] = command.path;
      }
    }
  }
  for (const auto& [short_name, long_names] : long_names_by_short) {
    std::string uses;
    for (const auto& [long_name, command] : long_names) uses += " " + long_name + " (" + command + ")";
    EXPECT_EQ(long_names.size(), 1u) << short_name << " means" << uses;
  }
}

// The common options have their short form wherever they appear.
TEST(CliGrammar, CommonOptionsHaveTheirShortFormEverywhere) {
  const auto app = built_app();
  const std::map<std::string, std::string> short_by_long = {{"config", "c"}, {"workload", "w"}, {"out", "o"},
                                                            {"jobs", "j"},   {"param", "p"},    {"quiet", "q"}};
  for (const Command& command : leaf_commands(*app)) {
    for (const CLI::Option* option : command.app->get_options()) {
      if (option->get_lnames().empty()) continue;
      const auto expected = short_by_long.find(option->get_lnames()[0]);
      if (expected == short_by_long.end()) continue;
      const std::vector<std::string> shorts = option->get_snames();
      EXPECT_TRUE(std::find(shorts.begin(), shorts.end(), expected->second) != shorts.end())
          << command.path << " --" << expected->first << " lacks -" << expected->second;
    }
  }
}

// A command simulates when it runs the simulator, its studies and comparisons included; `map` plans layers
// without simulating them, so it takes --batch alone.
TEST(CliGrammar, EveryCommandThatSimulatesTakesBatchAndFidelity) {
  const auto app = built_app();
  std::set<std::string> simulating = {"run",          "roofline",   "sweep",      "partition",          "compare",
                                      "dvfs",         "dvfs-study", "fit lahmer", "profile blackthorn", "bench-phases"};
  for (const Command& command : leaf_commands(*app)) {
    if (has_option(*command.app, "--fidelity")) {
      EXPECT_TRUE(has_option(*command.app, "--batch")) << command.path << " takes --fidelity without --batch";
    }
    if (!simulating.count(command.path)) continue;
    EXPECT_TRUE(has_option(*command.app, "--batch")) << command.path;
    EXPECT_TRUE(has_option(*command.app, "--fidelity")) << command.path;
    simulating.erase(command.path);
  }
  EXPECT_TRUE(simulating.empty()) << "missing: " << *simulating.begin();
}

TEST(CliGrammar, EveryReportingCommandTakesFormat) {
  const auto app = built_app();
  for (const Command& command : leaf_commands(*app)) {
    if (is_conversion(command.path)) continue;
    EXPECT_TRUE(has_option(*command.app, "--format")) << command.path;
  }
}

// Each word of the footer's example that is an option must be one of the command's own.
TEST(CliGrammar, EveryCommandShowsOneExampleOfItsOwnOptions) {
  const auto app = built_app();
  for (const Command& command : leaf_commands(*app)) {
    const std::string footer = command.app->get_footer();
    const std::string start = "Example:\n  ergon " + command.path;
    ASSERT_EQ(footer.rfind(start, 0), 0u) << command.path << " has no example; footer: " << footer;
    std::istringstream words(footer.substr(start.size()));
    for (std::string word; words >> word;) {
      if (word.size() < 2 || word[0] != '-') continue;
      const std::string name = word.substr(0, word.find('='));
      EXPECT_TRUE(has_option(*command.app, name)) << command.path << " example uses " << name;
    }
  }
}

TEST(CliGrammar, DefaultsShowAsAUserTypesThem) {
  const auto app = built_app();
  for (const Command& command : leaf_commands(*app)) {
    for (const CLI::Option* option : command.app->get_options()) {
      const std::string shown = option->get_default_str();
      EXPECT_TRUE(shown.empty() || shown[0] != '/') << command.path << " " << option->get_name() << ": " << shown;
      if (option->check_name("--config") && !shown.empty()) {
        EXPECT_EQ(shown, "eyeriss") << command.path;
      }
    }
  }
}

TEST(CliGrammar, OptionsAreGroupedAlike) {
  const auto app = built_app();
  for (const Command& command : leaf_commands(*app)) {
    for (const CLI::Option* option : command.app->get_options()) {
      if (option->check_name("--config") || option->check_name("--workload")) {
        EXPECT_EQ(option->get_group(), "Inputs") << command.path;
      }
      if (option->check_name("--out") || option->check_name("--format")) {
        EXPECT_EQ(option->get_group(), "Outputs") << command.path;
      }
    }
  }
}

TEST(ShippedParts, NamesResolveToTheShippedFiles) {
  const std::string config = resolve_shipped(ShippedPart::kConfig, "edge_tpu");
  EXPECT_EQ(shown_data_path(config), "configs/edge_tpu.yaml");
  const std::string own_file = test::data_dir() + "/invalid_inputs.yaml";
  EXPECT_EQ(resolve_shipped(ShippedPart::kConfig, own_file), own_file) << "a path stays as given";
  EXPECT_EQ(shown_data_path(resolve_shipped(ShippedPart::kConfig, "configs/gemmini.yaml")), "configs/gemmini.yaml")
      << "a source-tree path resolves from any folder";
  EXPECT_EQ(shown_data_path(resolve_shipped(ShippedPart::kWorkload, "cnnergy/alexnet")),
            "workloads/cnnergy/alexnet.yaml");
  EXPECT_EQ(resolve_shipped(ShippedPart::kWorkload, "no_such_network"), "no_such_network");
  EXPECT_NE(why_not_shipped(ShippedPart::kWorkload, "alexnt").find("did you mean alexnet?"), std::string::npos);
  EXPECT_EQ(shown_shipped_name(ShippedPart::kConfig, config), "edge_tpu");
  std::set<std::string> names;
  for (const ShippedFile& file : shipped_files(ShippedPart::kConfig)) names.insert(file.name);
  EXPECT_TRUE(names.count("eyeriss") && names.count("gemmini")) << names.size() << " configs";
}

}  // namespace
}  // namespace ergon
