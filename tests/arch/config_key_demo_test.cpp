// Adding a config key is one declaration plus its use (docs/architecture.md, "Adding a config key"). This
// binary declares `demo.extra_words` in a section of its own, the way a part declares its keys beside it, and
// follows it through the loader (default, value, range, misspelling), `config show`, `config keys` and the
// docs/config.md check, none of which it edits.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "arch/config_keys.hpp"
#include "cli/commands/commands.hpp"
#include "common/input_error.hpp"
#include "tests/docs/config_key_table.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

// A real key's field is a member of the config struct, with its default as the initialiser. A test cannot add
// a member, so the demo keeps its value beside each config, by name, with the default written here once.
std::int64_t& extra_words_of(const AcceleratorConfig& config) {
  static std::map<std::string, std::int64_t> words;
  return words.try_emplace(config.name, 8).first->second;
}

AcceleratorConfigSection demo_keys() {
  AcceleratorConfigSection section = config_section("demo");
  section.keys = {int_key<AcceleratorConfig>(
      "demo.extra_words", [](auto& config) -> auto& { return extra_words_of(config); }, IntRule{1, 64}, "words",
      "a key declared by a test, to show what adding one touches")};
  return section;
}

}  // namespace
}  // namespace ergon

ERGON_REGISTER(ergon::AcceleratorConfigSection, "demo", ergon::demo_keys(), ergon::config_order::kMapper + 1)

namespace ergon {
namespace {

const std::string kEyeriss = test::source_dir() + "/configs/eyeriss.yaml";

std::string load_error(const std::vector<std::string>& overrides) {
  try {
    load_accelerator_config(kEyeriss, overrides);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

std::string command_output(std::vector<std::string> arguments) {
  CLI::App app;
  Registry<CliCommand>::instance().find("config")->add(app);
  std::reverse(arguments.begin(), arguments.end());  // CLI11 takes them last first
  testing::internal::CaptureStdout();
  app.parse(arguments);
  return testing::internal::GetCapturedStdout();
}

TEST(ConfigKeyDemo, TheLoaderReadsItsDefaultItsValueAndReportsItsErrors) {
  EXPECT_EQ(extra_words_of(load_accelerator_config(kEyeriss, {"name=without"})), 8);
  EXPECT_EQ(extra_words_of(load_accelerator_config(kEyeriss, {"name=with", "demo.extra_words=12"})), 12);
  EXPECT_EQ(load_error({"demo.extra_words=0"}),
            "--set demo.extra_words=0: demo.extra_words: must be between 1 and 64 (got 0)");
  EXPECT_NE(load_error({"demo.extra_wrds=3"}).find("unknown key 'extra_wrds'; did you mean 'extra_words'?"),
            std::string::npos);
}

TEST(ConfigKeyDemo, ConfigShowAndConfigKeysListIt) {
  const std::string shown = command_output(
      {"config", "show", kEyeriss, "--set", "demo.extra_words=12", "--set", "name=shown", "--format", "csv"});
  EXPECT_NE(shown.find("\ndemo.extra_words,12\n"), std::string::npos) << shown;
  const std::string keys = command_output({"config", "keys", "--format", "markdown"});
  EXPECT_NE(keys.find("| `demo.extra_words` | integer | 8 | words | [1, 64] | always |"), std::string::npos) << keys;
}

// The docs check fails on exactly the new key until docs/config.md gains its row.
TEST(ConfigKeyDemo, TheDocsCheckAsksForItsRow) {
  const std::string documented = test::documented_config_key_table();
  const std::string generated = config_keys_markdown(accelerator_config_keys());
  ASSERT_NE(documented, generated);
  const std::size_t row = generated.find("| `demo.extra_words` |");
  ASSERT_NE(row, std::string::npos);
  std::string without_demo = generated;
  without_demo.erase(row, generated.find('\n', row) + 1 - row);
  EXPECT_EQ(documented, without_demo);
}

}  // namespace
}  // namespace ergon
