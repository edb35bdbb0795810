// Table-driven catalogue of malformed inputs: every case must fail with a located, explanatory
// message. The cases live in tests/data/invalid_inputs.yaml.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>

#include "arch/accelerator_config.hpp"
#include "common/input_error.hpp"
#include "network/workload.hpp"
#include "power/energy_table.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

struct InvalidInputCase {
  std::string name;
  std::string kind;
  std::string content;
  std::vector<std::string> overrides;
  std::vector<std::string> expected_fragments;
};

void PrintTo(const InvalidInputCase& entry, std::ostream* stream) {
  *stream << entry.name;
}

std::vector<InvalidInputCase> load_cases() {
  std::vector<InvalidInputCase> cases;
  const YAML::Node root = YAML::LoadFile(test::data_dir() + "/invalid_inputs.yaml");
  for (const auto& node : root["cases"]) {
    InvalidInputCase entry{node["name"].as<std::string>(),
                           node["kind"].as<std::string>(),
                           node["content"].as<std::string>(),
                           {},
                           node["expect"].as<std::vector<std::string>>()};
    if (node["overrides"]) entry.overrides = node["overrides"].as<std::vector<std::string>>();
    cases.push_back(entry);
  }
  return cases;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

void load_as(const InvalidInputCase& entry, const std::string& path) {
  if (entry.kind == "config") {
    load_accelerator_config(path, entry.overrides);
  } else if (entry.kind == "energy_table") {
    load_energy_table(path);
  } else if (entry.kind == "workload") {
    load_workload(path);
  } else {
    FAIL() << "unknown kind " << entry.kind;
  }
}

class InvalidInputTest : public testing::TestWithParam<InvalidInputCase> {};

TEST_P(InvalidInputTest, FailsWithLocatedMessage) {
  const InvalidInputCase& entry = GetParam();
  const auto folder = std::filesystem::temp_directory_path() / "ergon_invalid_inputs";
  std::filesystem::create_directories(folder);
  const std::string path = (folder / (entry.name + ".yaml")).string();
  std::ofstream(path, std::ios::binary) << entry.content;
  try {
    load_as(entry, path);
    FAIL() << entry.name << ": loading succeeded but should have failed";
  } catch (const InputError& error) {
    const std::string message = error.what();
    for (const auto& fragment : entry.expected_fragments) {
      EXPECT_NE(message.find(replace_all(fragment, "{file}", path)), std::string::npos)
          << entry.name << ": message lacks '" << fragment << "'\n  message: " << message;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Catalogue, InvalidInputTest, testing::ValuesIn(load_cases()),
                         [](const testing::TestParamInfo<InvalidInputCase>& case_info) {
                           return case_info.param.name;
                         });

TEST(InvalidInputCatalogue, CoversAtLeastFifteenKinds) {
  EXPECT_GE(load_cases().size(), 15u);
}

}  // namespace
}  // namespace ergon
