#include "common/yaml_view.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/atomic_file.hpp"
#include "common/text.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

TEST(Text, EditDistanceCountsSingleEdits) {
  EXPECT_EQ(edit_distance("size_kib", "size_kib"), 0u);
  EXPECT_EQ(edit_distance("size_kb", "size_kib"), 1u);
  EXPECT_EQ(edit_distance("rows", "cols"), 2u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
}

TEST(Text, ClosestMatchIgnoresUnrelatedWords) {
  EXPECT_EQ(closest_match("bandwith_gbps", {"bandwidth_gbps", "latency_ns"}), "bandwidth_gbps");
  EXPECT_EQ(closest_match("completely_different", {"rows", "cols"}), "");
}

YamlMap root_of(YAML::Node node, std::shared_ptr<YamlOrigin> origin) {
  return YamlMap(YamlView(node, origin, ""));
}

TEST(YamlOverrides, CreateNestedKeysAndParseValuesAsYaml) {
  YAML::Node root = YAML::Load("glb: {size_kib: 100}\n");
  auto origin = std::make_shared<YamlOrigin>(YamlOrigin{"test.yaml", {}});
  apply_overrides(root, {"glb.size_kib=64", "dram.latency_ns=50", "list.values=[1, 2]"}, *origin);
  EXPECT_EQ(root["glb"]["size_kib"].as<int>(), 64);
  EXPECT_EQ(root["dram"]["latency_ns"].as<int>(), 50);
  EXPECT_EQ(root["list"]["values"].size(), 2u);
  EXPECT_EQ(origin->overrides.at("glb.size_kib"), "--set glb.size_kib=64");
}

TEST(YamlOverrides, RefuseDescendingIntoAValue) {
  YAML::Node root = YAML::Load("glb: 5\n");
  YamlOrigin origin{"test.yaml", {}};
  EXPECT_THROW(apply_overrides(root, {"glb.size_kib=64"}, origin), InputError);
}

TEST(YamlMap, ReportsLocationOfBadValue) {
  auto origin = std::make_shared<YamlOrigin>(YamlOrigin{"cfg.yaml", {}});
  YamlMap map = root_of(YAML::Load("a: 1\nb: oops\n"), origin);
  try {
    map.get_int("b");
    FAIL() << "expected an error";
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(), "cfg.yaml:2:4: b: expected an integer, got 'oops'");
  }
}

TEST(YamlMap, DefaultsApplyOnlyWhenKeyIsAbsent) {
  auto origin = std::make_shared<YamlOrigin>(YamlOrigin{"cfg.yaml", {}});
  YamlMap map = root_of(YAML::Load("a: 3\n"), origin);
  EXPECT_EQ(map.get_int("a", 7), 3);
  EXPECT_EQ(map.get_int("missing", 7), 7);
  EXPECT_NO_THROW(map.reject_unknown_keys());
}

TEST(YamlMap, RangeRulesAreEnforced) {
  auto origin = std::make_shared<YamlOrigin>(YamlOrigin{"cfg.yaml", {}});
  YamlMap map = root_of(YAML::Load("zero: 0\nnegative: -1.5\n"), origin);
  EXPECT_THROW(map.get_number("zero", kPositive), InputError);
  EXPECT_THROW(map.get_number("negative", kNonNegative), InputError);
  EXPECT_DOUBLE_EQ(map.get_number("negative"), -1.5);
}

TEST(AtomicFile, WritesWholeContentAndLeavesNoTemporary) {
  const auto folder = test::unique_temp_path("ergon_atomic_file_test");
  std::filesystem::remove_all(folder);
  const std::string path = (folder / "nested" / "out.txt").string();
  write_file_atomically(path, "first");
  write_file_atomically(path, "second");
  std::ifstream stream(path);
  std::stringstream content;
  content << stream.rdbuf();
  EXPECT_EQ(content.str(), "second");
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(folder / "nested")) ++files;
  EXPECT_EQ(files, 1u);
}

}  // namespace
}  // namespace ergon
