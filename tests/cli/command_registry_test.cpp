// Registration end to end: an estimator registered from this test file, as any plug-in registers itself, is
// in the estimator registry and becomes `ergon estimate registered-in-test` in the command line built from
// the registrations; and the commands the registry adds are those `ergon --help` lists, in its order.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "cli/commands/commands.hpp"
#include "power/estimators/registry.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

class RegisteredInTest : public IEstimator {
 public:
  std::string name() const override { return "registered-in-test"; }
  std::string description() const override { return "An estimator registered by a test"; }
  bool models_a_chip() const override { return false; }
  EstimateReport estimate(const EstimatorInputs&) const override {
    throw std::logic_error("registered-in-test estimates nothing");
  }
  std::vector<EstimateSource> comparison_sources(const ComparisonInputs&) const override { return {}; }
};

}  // namespace

ERGON_REGISTER(EstimatorPlugin, "registered-in-test", std::make_shared<const RegisteredInTest>(), 1000)

namespace {

std::vector<std::string> subcommand_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; })) {
    names.push_back(command->get_name());
  }
  return names;
}

// The names under "Subcommands:" in `ergon --help`.
std::vector<std::string> listed_by_the_binary() {
  FILE* pipe = popen((test::ergon_binary() + " --help").c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("cannot run " + test::ergon_binary());
  std::string help;
  char buffer[4096];
  for (std::size_t read; (read = fread(buffer, 1, sizeof buffer, pipe)) > 0;) help.append(buffer, read);
  pclose(pipe);
  std::vector<std::string> names;
  std::istringstream lines(help.substr(help.find("Subcommands:")));
  std::string line;
  std::getline(lines, line);
  while (std::getline(lines, line) && !line.empty()) names.push_back(line.substr(2, line.find(' ', 2) - 2));
  return names;
}

TEST(CommandRegistry, AnEstimatorRegisteredInATestIsAnEstimateSubcommand) {
  ASSERT_NE(find_estimator("Registered-In-Test"), nullptr);
  EXPECT_EQ(estimators().back()->name(), "registered-in-test");  // order 1000: after the shipped ones
  CLI::App app;
  add_registered_commands(app);
  const std::vector<std::string> estimates = subcommand_names(*app.get_subcommand("estimate"));
  EXPECT_EQ(estimates, estimator_names());
}

TEST(CommandRegistry, TheBinaryListsTheRegisteredCommandsInOrder) {
  CLI::App app;
  add_registered_commands(app);
  const std::vector<std::string> registered = subcommand_names(app);
  EXPECT_GE(registered.size(), Registry<CliCommand>::instance().items().size());
  EXPECT_EQ(registered, listed_by_the_binary());
}

}  // namespace
}  // namespace ergon
