// The area model (docs/area.md): a chip's area scales with its config exactly as the table's figures say
// (the GLB by its bytes, the array by its PEs, each scratchpad by its bytes, the MAC by its word width), the
// components add up to the total that report.json gives, and an Accelergy ART read with its architecture's
// sizes gives the figures the CNNergy table took from the same ART by hand.
#include "power/area_model.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "common/input_error.hpp"
#include "power/accelergy_art.hpp"
#include "sim/run_report.hpp"
#include "sim/simulation.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

namespace fs = std::filesystem;

const EnergyTable& cnnergy() {
  static const EnergyTable loaded = load_energy_table(test::source_dir() + "/power/tables/cnnergy_65nm.yaml");
  return loaded;
}

AcceleratorConfig config(const std::string& name, const std::vector<std::string>& overrides = {}) {
  return load_accelerator_config(test::source_dir() + "/configs/" + name + ".yaml", overrides);
}

ChipArea eyeriss_area(const std::vector<std::string>& overrides = {}) {
  return chip_area(config("eyeriss", overrides), cnnergy());
}

const AreaTable& figures() {
  return *cnnergy().area;
}

TEST(AreaModel, ComponentsAddUpToTheTotal) {
  const ChipArea area = eyeriss_area();
  ASSERT_TRUE(area.known());
  double sum = 0;
  for (const ComponentArea& component : area.components) {
    EXPECT_GT(component.um2, 0.0) << component.component;
    sum += component.um2;
  }
  EXPECT_DOUBLE_EQ(sum, area.total_um2());
  EXPECT_EQ(area.component_um2("noc"), 0.0);  // the source gives no NoC area
}

TEST(AreaModel, DoublingTheGlbAddsItsBytesAtTheTablesAreaPerByte) {
  const ChipArea base = eyeriss_area();
  const ChipArea doubled = eyeriss_area({"glb.size_kib=200"});
  EXPECT_DOUBLE_EQ(doubled.component_um2("glb") - base.component_um2("glb"), 100 * 1024 * figures().glb_um2_per_byte);
  EXPECT_EQ(doubled.component_um2("mac"), base.component_um2("mac"));
  EXPECT_EQ(doubled.component_um2("rf"), base.component_um2("rf"));
  // The separate filter store is buffer too.
  const ChipArea with_filters = eyeriss_area({"glb.filter_size_kib=16"});
  EXPECT_NEAR(with_filters.component_um2("glb") - base.component_um2("glb"), 8 * 1024 * figures().glb_um2_per_byte,
              1e-12 * base.component_um2("glb"));
}

TEST(AreaModel, TheArrayScalesWithItsPesScratchpadsAndWordWidth) {
  const ChipArea base = eyeriss_area();  // 12 x 14 PEs, 16-bit words, 224/12/24-word scratchpads
  const ChipArea rows = eyeriss_area({"pe_array.rows=24"});
  EXPECT_DOUBLE_EQ(rows.component_um2("mac"), 2 * base.component_um2("mac"));
  EXPECT_DOUBLE_EQ(rows.component_um2("rf"), 2 * base.component_um2("rf"));
  EXPECT_EQ(rows.component_um2("glb"), base.component_um2("glb"));
  EXPECT_DOUBLE_EQ(base.component_um2("mac"), 168 * 767.28);

  const ChipArea filters = eyeriss_area({"pe_array.rf.filter_entries=448"});
  EXPECT_NEAR(filters.component_um2("rf") - base.component_um2("rf"), 168 * 224 * 2 * figures().filter_rf_um2_per_byte,
              1e-9 * base.component_um2("rf"));

  const ChipArea narrow = eyeriss_area({"pe_array.word_bits=8"});
  EXPECT_DOUBLE_EQ(narrow.component_um2("mac"), 168 * 191.82);
  EXPECT_DOUBLE_EQ(narrow.component_um2("rf"), base.component_um2("rf") / 2);  // the same words, half the bytes
  EXPECT_EQ(narrow.component_um2("glb"), base.component_um2("glb"));
}

// A systolic PE holds one register per operand (its accumulator at the accumulator's width); pipelined
// folds add a second one for the stationary operand.
TEST(AreaModel, SystolicPesHoldARegisterPerOperand) {
  const AreaInputs os = area_inputs(config("edge_tpu", {"pe_array.accumulator_bits=32"}));
  EXPECT_EQ(os.pes, 64 * 64);
  EXPECT_EQ(os.ifmap_rf_bytes, 1.0);
  EXPECT_EQ(os.filter_rf_bytes, 1.0);
  EXPECT_EQ(os.psum_rf_bytes, 4.0);
  const AreaInputs pipelined =
      area_inputs(config("edge_tpu", {"pe_array.accumulator_bits=32", "pe_array.pipelined_folds=true"}));
  EXPECT_EQ(pipelined.psum_rf_bytes, 8.0);
  EXPECT_EQ(pipelined.filter_rf_bytes, 1.0);
  const ChipArea area = chip_area(os, figures());
  EXPECT_DOUBLE_EQ(
      area.component_um2("rf"),
      4096 * (figures().ifmap_rf_um2_per_byte + figures().filter_rf_um2_per_byte + 4 * figures().psum_rf_um2_per_byte));
}

TEST(AreaModel, ArtWithItsSizesGivesTheFiguresTheCnnergyTableTookFromIt) {
  const std::string path = test::source_dir() + "/examples/accelergy/ART.yaml";
  const AreaTable art = area_table_from_art(path, load_yaml_file(path));
  EXPECT_DOUBLE_EQ(*art.mac_um2(8), *figures().mac_um2(8));
  EXPECT_DOUBLE_EQ(*art.mac_um2(16), *figures().mac_um2(16));
  EXPECT_DOUBLE_EQ(art.filter_rf_um2_per_byte, figures().filter_rf_um2_per_byte);
  EXPECT_DOUBLE_EQ(art.ifmap_rf_um2_per_byte, figures().ifmap_rf_um2_per_byte);
  EXPECT_DOUBLE_EQ(art.psum_rf_um2_per_byte, figures().psum_rf_um2_per_byte);
  EXPECT_DOUBLE_EQ(art.glb_um2_per_byte, figures().glb_um2_per_byte);
  // A bare ERT takes its area from the ART beside it.
  const EnergyTable bare = load_energy_table(test::source_dir() + "/examples/accelergy/ERT.yaml");
  ASSERT_TRUE(bare.area.has_value());
  EXPECT_DOUBLE_EQ(bare.area->glb_um2_per_byte, figures().glb_um2_per_byte);
}

// A folder of this test's own, removed when the test ends.
struct TempFolder {
  explicit TempFolder(const std::string& name) : path(test::unique_temp_path(name)) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempFolder() { fs::remove_all(path); }
  fs::path path;
};

// An ART as Accelergy writes it has no sizes: read on its own it is an error naming the component; beside a
// bare ERT it leaves the table without an area, noted, and the ERT still prices the run.
TEST(AreaModel, ArtWithoutSizesIsRefusedOrNotedBesideABareErt) {
  TempFolder folder("art_without_sizes");
  std::ofstream(folder.path / "ART.yaml") << "ART:\n  version: '0.4'\n  tables:\n"
                                             "    - name: system.PE[1..4].mac\n      area: 100\n"
                                             "    - name: system.glb\n      area: 5000\n";
  std::ofstream(folder.path / "ERT.yaml") << "ERT:\n  version: '0.4'\n  tables:\n    - name: system.PE[1..4].mac\n"
                                             "      actions: [{name: compute, arguments: {}, energy: 1.0}]\n";
  const std::string art = (folder.path / "ART.yaml").string();
  try {
    area_table_from_art(art, load_yaml_file(art));
    FAIL() << "an ART without sizes was read";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("system.PE[1..4].mac"), std::string::npos) << error.what();
  }
  const EnergyTable bare = load_energy_table((folder.path / "ERT.yaml").string());
  EXPECT_FALSE(bare.area.has_value());
  ASSERT_FALSE(bare.area_notes.empty());
  EXPECT_NE(bare.area_notes.front().find("gives no area"), std::string::npos) << bare.area_notes.front();
  EXPECT_FALSE(chip_area(config("eyeriss"), bare).known());
}

// A mistyped area figure stops the table's loading at its line, as an energy does.
TEST(AreaModel, BadAreaSectionIsRefusedAtItsKey) {
  TempFolder folder("bad_area");
  std::ifstream shipped(test::source_dir() + "/power/tables/cnnergy_65nm.yaml");
  const std::string table((std::istreambuf_iterator<char>(shipped)), std::istreambuf_iterator<char>());
  const auto refused = [&](const std::string& from, const std::string& to, const std::string& message) {
    const std::size_t at = table.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    std::string edited = table;
    edited.replace(at, from.size(), to);
    std::ofstream(folder.path / "table.yaml") << edited;
    try {
      load_energy_table((folder.path / "table.yaml").string());
      FAIL() << "accepted " << to;
    } catch (const InputError& error) {
      EXPECT_NE(std::string(error.what()).find(message), std::string::npos) << error.what();
    }
  };
  refused("    8: 191.82", "    12: 191.82", "a word width is 8 or 16 bits");
  refused("  glb_um2_per_byte:", "  glb_um2_per_bite:", "glb_um2_per_bite");
  refused("    psum: 3.863354625", "    psum: -1", "area.register_file_um2_per_byte.psum");
}

TEST(AreaModel, ReportGivesTheAreaByComponentAndItsTotal) {
  const AcceleratorConfig eyeriss = config("eyeriss");
  const Workload workload = load_workload(test::source_dir() + "/workloads/ds_cnn.yaml");
  const SimulationResult result = Simulation(eyeriss, cnnergy(), workload, {}).run();
  const nlohmann::ordered_json report = run_json(result, eyeriss, workload, "tlm");
  const ChipArea area = eyeriss_area();
  ASSERT_TRUE(report["area_mm2"].is_object());
  double sum = 0;
  for (const ComponentArea& component : area.components) {
    EXPECT_DOUBLE_EQ(report["area_mm2"][component.component].get<double>(), component.um2 / 1e6);
    sum += report["area_mm2"][component.component].get<double>();
  }
  EXPECT_NEAR(report["area_mm2"]["total"].get<double>(), sum, 1e-12 * sum);
  EXPECT_FALSE(report["area_notes"].empty());
  EXPECT_EQ(area_cell(area), fmt::format("{}", area.total_um2() / 1e6));
  EXPECT_EQ(area_cell(ChipArea{}), "");
}

}  // namespace
}  // namespace ergon
