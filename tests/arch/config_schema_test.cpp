// The config schema against what reads it: `config show` lists exactly the keys that apply to each shipped
// config, `config keys` lists every declaration, docs/config.md's key table is the schema's, and a key's
// default is its struct's initialiser.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "arch/config_keys.hpp"
#include "tests/docs/config_key_table.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

std::string output_of(const std::string& command) {
  std::string output;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return output;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, n);
  ::pclose(pipe);
  return output;
}

// The key paths `config show FILE --format csv` prints.
std::vector<std::string> shown_rows(const std::string& config_path) {
  std::istringstream csv(output_of("'" + test::ergon_binary() + "' config show '" + config_path + "' --format csv"));
  std::vector<std::string> rows;
  std::string line;
  std::getline(csv, line);  // the header
  while (std::getline(csv, line)) rows.push_back(line.substr(0, line.find(',')));
  return rows;
}

std::vector<std::string> shipped_configs() {
  std::vector<std::string> paths;
  for (const auto& entry : std::filesystem::directory_iterator(test::source_dir() + "/configs")) {
    if (entry.path().extension() == ".yaml") paths.push_back(entry.path().string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

TEST(ConfigSchema, ShowListsExactlyTheKeysThatApplyToEachShippedConfig) {
  const std::vector<std::string> configs = shipped_configs();
  ASSERT_GE(configs.size(), 4u);
  for (const std::string& path : configs) {
    const AcceleratorConfig config = load_accelerator_config(path);
    const std::vector<std::string> rows = shown_rows(path);
    ASSERT_FALSE(rows.empty()) << path;
    std::size_t applying = 0;
    for (const auto& item : AcceleratorConfigSections::instance().items()) {
      const AcceleratorConfigSection& section = item.entry;
      const bool applies = section_applies(section, config) && (!section.present || section.present(config));
      for (const AcceleratorConfigKey& key : section.keys) {
        const bool shown =
            std::any_of(rows.begin(), rows.end(), [&](const std::string& row) { return shows_key(key.info, row); });
        EXPECT_EQ(shown, applies) << path << ": " << key.info.path;
        applying += applies ? 1 : 0;
      }
    }
    EXPECT_GT(applying, 30u) << path;
    const std::vector<ConfigKeyInfo> keys = accelerator_config_keys();
    for (const std::string& row : rows) {
      // Derived, not keys: the table energy.table resolves to, and the chip's area with it.
      if (row == "energy.table_file" || row.rfind("area_mm2", 0) == 0 || row.rfind("area_notes", 0) == 0) continue;
      EXPECT_TRUE(std::any_of(keys.begin(), keys.end(), [&](const ConfigKeyInfo& key) { return shows_key(key, row); }))
          << path << ": config show prints '" << row << "', which no declaration gives";
    }
  }
}

// `config show` gives the area a run of the same config reports, and the GLB's grows by the same amount for
// each 1 MiB added (linear in its bytes, docs/area.md) while the PE array's stays.
TEST(ConfigSchema, ShowGivesTheAreaARunReports) {
  const std::string ergon = "'" + test::ergon_binary() + "'";
  const auto shown = [&](const std::string& set) {
    return nlohmann::json::parse(output_of(ergon + " config show edge_tpu --set " + set + " --format json"));
  };
  const nlohmann::json small = shown("glb.size_kib=3072"), large = shown("glb.size_kib=4096"),
                       larger = shown("glb.size_kib=5120");
  const nlohmann::json run = nlohmann::json::parse(
      output_of(ergon + " run -c edge_tpu --set glb.size_kib=3072 -w resnet8 --format json --quiet"));
  ASSERT_TRUE(small["area_mm2"].is_object());
  EXPECT_EQ(small["area_mm2"], run["area_mm2"]);
  EXPECT_EQ(small["area_notes"], run["area_notes"]);
  const auto glb_mm2 = [](const nlohmann::json& config) { return config["area_mm2"]["glb"].get<double>(); };
  EXPECT_GT(glb_mm2(large), glb_mm2(small));
  EXPECT_NEAR(glb_mm2(larger) - glb_mm2(large), glb_mm2(large) - glb_mm2(small), 1e-9);
  EXPECT_DOUBLE_EQ(large["area_mm2"]["mac"].get<double>(), small["area_mm2"]["mac"].get<double>());
}

// The shipped STM32N6 config's soc section is listed in full (it was missing from `config show` before).
TEST(ConfigSchema, ShowListsTheSocSection) {
  const std::vector<std::string> rows = shown_rows(test::source_dir() + "/configs/stm32n6.yaml");
  for (const char* row : {"soc.reference_point", "soc.operating_points.h-perf.npu_mhz", "soc.rails.vddio.voltage_v",
                          "soc.cpu.power_mw", "soc.static.dibl_slope_mv", "soc.npu.energy_scale", "soc.idle_us"}) {
    EXPECT_NE(std::find(rows.begin(), rows.end(), row), rows.end()) << row;
  }
}

TEST(ConfigSchema, KeysCommandListsEveryDeclaration) {
  const auto listed =
      nlohmann::json::parse(output_of("'" + test::ergon_binary() + "' config keys --format json"), nullptr, false);
  const std::vector<ConfigKeyInfo> keys = accelerator_config_keys();
  ASSERT_TRUE(listed.is_array());
  ASSERT_EQ(listed.size(), keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    EXPECT_EQ(listed[i]["key"], keys[i].path);
    EXPECT_EQ(listed[i]["default"], keys[i].default_text);
    EXPECT_EQ(listed[i]["applies_when"], keys[i].applies_when);
    EXPECT_FALSE(keys[i].help.empty()) << keys[i].path << " has no help line";
  }
}

TEST(ConfigSchema, DocsKeyTableIsTheSchemas) {
  EXPECT_EQ(test::documented_config_key_table(), config_keys_markdown(accelerator_config_keys()))
      << "regenerate docs/config.md's key table with `ergon config keys --format markdown`";
}

// A default is written once, in the config struct: what the schema lists is what a config without the key loads.
TEST(ConfigSchema, DefaultsAreWhatAConfigWithoutTheKeyLoads) {
  const AcceleratorConfig loaded = load_accelerator_config(
      test::source_dir() + "/configs/eyeriss.yaml", {"noc=~", "mapper=~", "pe_array.rf.filter_double_buffered=~"});
  const nlohmann::ordered_json values = accelerator_config_values(loaded);
  for (const ConfigKeyInfo& key : accelerator_config_keys()) {
    if (key.path.rfind("noc.", 0) != 0 && key.path.rfind("mapper.", 0) != 0 &&
        key.path != "pe_array.rf.filter_double_buffered") {
      continue;
    }
    std::string pointer = "/" + key.path;
    std::replace(pointer.begin(), pointer.end(), '.', '/');
    const nlohmann::ordered_json value = values.at(nlohmann::ordered_json::json_pointer(pointer));
    EXPECT_EQ(value.is_string() ? value.get<std::string>() : value.dump(), key.default_text) << key.path;
  }
}

}  // namespace
}  // namespace ergon
