// Table-driven catalogue of malformed inputs: every case must fail with an InputError whose message names
// the file (and line, key or layer) and says what to do. The cases live in test::catalogue_files();
// ERGON_PRINT_CATALOGUE=1 prints every message for review.
#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>
#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "arch/accelerator_config.hpp"
#include "arch/importers/scalesim_config.hpp"
#include "common/input_error.hpp"
#include "network/importers/scalesim_topology.hpp"
#include "network/workload.hpp"
#include "power/energy_table.hpp"
#include "sim/data_paths.hpp"
#include "sim/simulation.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

struct InvalidInputCase {
  std::string name;
  std::string kind;
  std::string bytes;     // the file's content
  std::string config;    // simulation and mapping kinds: a shipped config under configs/
  std::string workload;  // mapping kind: a shipped workload under workloads/
  std::vector<std::string> overrides;
  std::vector<std::string> expected_fragments;
};

void PrintTo(const InvalidInputCase& entry, std::ostream* stream) {
  *stream << entry.name;
}

const std::map<std::string, std::string>& extension_of_kind() {
  static const std::map<std::string, std::string> extensions = {
      {"config", ".yaml"},           {"energy_table", ".yaml"}, {"workload", ".yaml"},
      {"simulation", ".yaml"},       {"onnx", ".onnx"},         {"scalesim_config", ".cfg"},
      {"scalesim_topology", ".csv"}, {"scalesim_gemm", ".csv"}, {"mapping", ".yaml"}};
  return extensions;
}

// A case gives its bytes as `content` (text), `binary` (!!binary, base64) or `onnx_text` (an ONNX
// ModelProto in protobuf text format, serialised here).
std::string case_bytes(const YAML::Node& node, const std::string& name) {
  if (node["binary"]) {
    const YAML::Binary binary = node["binary"].as<YAML::Binary>();
    return std::string(reinterpret_cast<const char*>(binary.data()), binary.size());
  }
  if (node["onnx_text"]) {
    onnx::ModelProto model;
    if (!google::protobuf::TextFormat::ParseFromString(node["onnx_text"].as<std::string>(), &model)) {
      throw std::runtime_error(name + ": onnx_text is not a valid ModelProto text");
    }
    return model.SerializeAsString();
  }
  return node["content"].as<std::string>();
}

InvalidInputCase read_case(const YAML::Node& node) {
  InvalidInputCase entry;
  entry.name = node["name"].as<std::string>();
  entry.kind = node["kind"].as<std::string>();
  entry.bytes = case_bytes(node, entry.name);
  if (node["config"]) entry.config = node["config"].as<std::string>();
  if (node["workload"]) entry.workload = node["workload"].as<std::string>();
  if (node["overrides"]) entry.overrides = node["overrides"].as<std::vector<std::string>>();
  entry.expected_fragments = node["expect"].as<std::vector<std::string>>();
  return entry;
}

std::vector<InvalidInputCase> load_cases() {
  std::vector<InvalidInputCase> cases;
  for (const std::string& file : test::catalogue_files()) {
    const YAML::Node root = YAML::LoadFile(file);
    for (const auto& node : root["cases"]) cases.push_back(read_case(node));
  }
  return cases;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

// Loads the file the way the command line does for this kind of input.
void load_as(const InvalidInputCase& entry, const std::string& path) {
  if (entry.kind == "config") {
    load_accelerator_config(path, entry.overrides);
  } else if (entry.kind == "energy_table") {
    load_energy_table(path);
  } else if (entry.kind == "workload" || entry.kind == "onnx") {
    (void)load_workload(path).total_macs();
  } else if (entry.kind == "scalesim_config") {
    read_scalesim_config(path);
  } else if (entry.kind == "scalesim_topology" || entry.kind == "scalesim_gemm") {
    read_scalesim_topology(path,
                           entry.kind == "scalesim_gemm" ? ScaleSimTopologyKind::kGemm : ScaleSimTopologyKind::kAuto);
  } else if (entry.kind == "simulation") {
    const AcceleratorConfig config =
        load_accelerator_config(test::source_dir() + "/configs/" + entry.config, entry.overrides);
    Simulation(config, load_energy_table(energy_table_path(config)), load_workload(path), {}).run();
  } else if (entry.kind == "mapping") {
    const AcceleratorConfig config = load_accelerator_config(test::source_dir() + "/configs/" + entry.config);
    SimulationOptions options;
    options.mapping = load_mapping_file(path);
    const Workload workload = load_workload(test::source_dir() + "/workloads/" + entry.workload);
    Simulation(config, load_energy_table(energy_table_path(config)), workload, options).run();
  } else {
    FAIL() << "unknown kind " << entry.kind;
  }
}

class InvalidInputTest : public testing::TestWithParam<InvalidInputCase> {};

TEST_P(InvalidInputTest, FailsWithLocatedMessage) {
  const InvalidInputCase& entry = GetParam();
  const auto folder = test::unique_temp_path("ergon_invalid_inputs");
  std::filesystem::create_directories(folder);
  const std::string path = (folder / (entry.name + extension_of_kind().at(entry.kind))).string();
  std::ofstream(path, std::ios::binary) << entry.bytes;
  try {
    load_as(entry, path);
    FAIL() << entry.name << ": loading succeeded but should have failed";
  } catch (const InputError& error) {
    const std::string message = error.what();
    if (std::getenv("ERGON_PRINT_CATALOGUE")) std::cout << entry.name << ": " << message << "\n";
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

TEST(InvalidInputCatalogue, CoversEveryInputFormat) {
  const auto cases = load_cases();
  EXPECT_GE(cases.size(), 40u);
  std::map<std::string, int> per_kind;
  for (const auto& entry : cases) ++per_kind[entry.kind];
  for (const auto& [kind, extension] : extension_of_kind()) EXPECT_GT(per_kind[kind], 0) << kind;
}

TEST(InvalidInputCatalogue, EveryCaseNamesItsFile) {
  for (const auto& entry : load_cases()) {
    bool names_file = false;
    for (const auto& fragment : entry.expected_fragments) {
      names_file =
          names_file || fragment.find("{file}") != std::string::npos || fragment.find("--set") != std::string::npos;
    }
    EXPECT_TRUE(names_file) << entry.name << " does not check that the message names its file";
  }
}

}  // namespace
}  // namespace ergon
