// The shipped technology tables (power/tables/*.yaml) and the Accelergy ERT example (examples/accelergy/):
// each table prices every energy action the modules count and carries area figures; the Horowitz and
// TPU v4i tables give their sources' figures where the sources give them and their stated derivations
// elsewhere; a config priced by the example ERT loads, simulates, and prices each action at the ERT's
// energy per access of the component's width (docs/energy.md).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "arch/components.hpp"
#include "power/energy_table.hpp"
#include "sim/data_paths.hpp"
#include "sim/simulation.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

namespace fs = std::filesystem;

EnergyTable shipped(const std::string& name) {
  return load_energy_table(test::source_dir() + "/power/tables/" + name + ".yaml");
}

const CounterSpec& counter(const std::string& name) {
  static const std::vector<CounterSpec> specs = every_module_counter_spec();
  for (const CounterSpec& spec : specs) {
    if (spec.name == name) return spec;
  }
  throw std::logic_error("no counter " + name);
}

// The energy of one count of `action` (a word, a byte, a MAC) at `word_bits`.
double count_pj(const EnergyTable& table, const std::string& action, int word_bits) {
  return per_count_pj(*table.at_word_bits(word_bits).find(action), counter(action), word_bits);
}

TEST(TechnologyTables, EveryShippedTablePricesEveryCountedActionAndGivesAnArea) {
  int tables = 0;
  for (const auto& entry : fs::directory_iterator(test::source_dir() + "/power/tables")) {
    const EnergyTable table = load_energy_table(entry.path().string());
    ++tables;
    ASSERT_FALSE(table.word_widths.empty()) << entry.path();
    for (const WordWidthEnergies& width : table.word_widths) {
      EXPECT_NO_THROW(check_table_prices(table, width.word_bits, every_module_counter_spec()))
          << entry.path() << " " << width.word_bits;
      EXPECT_TRUE(table.area && table.area->mac_um2(width.word_bits)) << entry.path() << " " << width.word_bits;
    }
  }
  EXPECT_GE(tables, 3);
}

TEST(TechnologyTables, HorowitzTableGivesThePapersFiguresAndItsDerivations) {
  const EnergyTable table = shipped("horowitz_45nm");
  EXPECT_EQ(table.nominal_voltage_v, 0.9);
  EXPECT_DOUBLE_EQ(count_pj(table, "mac.compute", 8), 0.03 + 0.2);
  EXPECT_DOUBLE_EQ(count_pj(table, "mac.compute", 16), 0.1 * 16 / 32 + 3.1 * (16.0 / 32) * (16.0 / 32));
  EXPECT_DOUBLE_EQ(count_pj(table, "noc.pe_hop", 16), 2 * count_pj(table, "mac.compute", 16));
  // SRAM: 20 pJ per 64 bits at 32 KiB, the curve through the paper's 1 MB point (100 pJ), close to its 8 KB one.
  EXPECT_DOUBLE_EQ(count_pj(table, "glb.read", 16), 20.0 / 4);
  EXPECT_DOUBLE_EQ(table.glb_energy_scale(32), 1.0);
  EXPECT_NEAR(20 * table.glb_energy_scale(1024), 100.0, 1e-9);
  EXPECT_NEAR(20 * table.glb_energy_scale(8), 10.0, 0.6);
  // Register files: the paper's SRAM curve (10 pJ at 8 KiB, x sqrt of the capacity) at Eyeriss's scratchpads.
  EXPECT_DOUBLE_EQ(count_pj(table, "rf.filter_read", 16), 10 * std::sqrt(448.0 / 8192) * 16 / 64);
  EXPECT_DOUBLE_EQ(count_pj(table, "rf.ifmap_write", 8), 10 * std::sqrt(12.0 / 8192) * 8 / 64);
  // DRAM: the middle of 1.3-2.6 nJ per 64 bits, per byte.
  EXPECT_DOUBLE_EQ(count_pj(table, "dram.read", 16), 1950.0 / 8);
}

TEST(TechnologyTables, TpuTableGivesTheSourcesFiguresPerBit) {
  const EnergyTable table = shipped("tpu_v4i_7nm");
  EXPECT_EQ(table.nominal_voltage_v, 0.0);  // the source gives none: the config's
  EXPECT_DOUBLE_EQ(count_pj(table, "mac.compute", 16), 0.084);
  EXPECT_DOUBLE_EQ(count_pj(table, "glb.read", 16), 0.249 * 16);  // the 4 MiB LocalBuffer
  EXPECT_DOUBLE_EQ(count_pj(table, "glb.write", 16), 0.293 * 16);
  EXPECT_NEAR(0.249 * table.glb_energy_scale(128 * 1024), 1.88, 1e-9);  // the 128 MiB GlobalBuffer
  EXPECT_DOUBLE_EQ(count_pj(table, "dram.write", 16), 7.03 * 8);
  EXPECT_THROW(table.at_word_bits(8), InputError);
  EXPECT_DOUBLE_EQ(*table.area->mac_um2(16), 850.0);
  EXPECT_DOUBLE_EQ(table.area->glb_um2_per_byte * 128 * 1024 * 1024, 112e6);
}

std::string example_ert() {
  return test::source_dir() + "/examples/accelergy/ERT.yaml";
}

TEST(TechnologyTables, ExampleErtPricesEachActionAtItsComponentsWidth) {
  const EnergyTable table = load_energy_table(example_ert());
  for (int bits : {16, 8}) {
    const double words_per_64 = 64.0 / bits, words_per_16 = 16.0 / bits;
    EXPECT_DOUBLE_EQ(count_pj(table, "mac.compute", bits), 0.207692);
    EXPECT_DOUBLE_EQ(count_pj(table, "rf.ifmap_read", bits), 0.202442 / words_per_16);
    EXPECT_DOUBLE_EQ(count_pj(table, "rf.filter_write", bits), 1.881657 / words_per_16);
    EXPECT_DOUBLE_EQ(count_pj(table, "rf.psum_read", bits), 0.2513 / words_per_16);
    EXPECT_DOUBLE_EQ(count_pj(table, "glb.read", bits), 18.183829 / words_per_64);
    EXPECT_DOUBLE_EQ(count_pj(table, "glb.write", bits), 14.137929 / words_per_64);
    EXPECT_DOUBLE_EQ(count_pj(table, "dram.read", bits), 512.0 / 8);  // a byte of a 64-bit access
    EXPECT_EQ(count_pj(table, "noc.pe_hop", bits), 0.0);              // no NoC in the ERT: noted
  }
  bool noted = false;
  for (const std::string& note : table.notes) noted = noted || note.find("noc.pe_hop") != std::string::npos;
  EXPECT_TRUE(noted);
}

// A config naming the example ERT (as the README does, relative to the config's folder) loads and
// simulates, and each component's energy is its counts priced at the ERT's energies.
TEST(TechnologyTables, ConfigUsingTheExampleErtSimulatesAtTheErtsEnergies) {
  const AcceleratorConfig config = load_accelerator_config(test::source_dir() + "/configs/eyeriss.yaml",
                                                           {"energy.table=../examples/accelergy/ERT.yaml"});
  ASSERT_TRUE(fs::equivalent(energy_table_path(config), example_ert()));
  const EnergyTable table = load_energy_table(energy_table_path(config));
  const Workload workload = load_workload(test::source_dir() + "/workloads/ds_cnn.yaml");
  const SimulationResult result = Simulation(config, table, workload, {}).run();
  const LayerResult& total = result.total;
  ASSERT_GT(total.count("mac.compute"), 0u);
  const auto priced = [&](std::initializer_list<const char*> actions) {
    double pj = 0;
    for (const char* action : actions) pj += static_cast<double>(total.count(action)) * count_pj(table, action, 16);
    return pj;
  };
  const auto expect_priced = [&](const char* component, std::initializer_list<const char*> actions) {
    const double expected = priced(actions);
    EXPECT_GT(expected, 0.0) << component;
    EXPECT_NEAR(total.energy.component_pj(component), expected, 1e-12 * expected) << component;
  };
  expect_priced("mac", {"mac.compute"});
  expect_priced(
      "rf", {"rf.ifmap_read", "rf.ifmap_write", "rf.filter_read", "rf.filter_write", "rf.psum_read", "rf.psum_write"});
  expect_priced("glb", {"glb.read", "glb.write"});
  expect_priced("dram", {"dram.read", "dram.write"});
  EXPECT_EQ(total.energy.component_pj("noc"), 0.0);
  EXPECT_EQ(total.energy.clock_pj, 0.0);
}

}  // namespace
}  // namespace ergon
