#include "arch/accelerator_config.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "arch/dram_presets.hpp"
#include "common/input_error.hpp"
#include "power/energy_table.hpp"
#include "sim/data_paths.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

const std::string kEyeriss = test::source_dir() + "/configs/eyeriss.yaml";

TEST(AcceleratorConfig, EyerissPresetHasThePublishedSizes) {
  const AcceleratorConfig config = load_accelerator_config(kEyeriss);
  EXPECT_EQ(config.pe_array.rows, 12);
  EXPECT_EQ(config.pe_array.cols, 14);
  EXPECT_EQ(config.pe_array.rf.filter_entries, 224);
  EXPECT_EQ(config.pe_array.rf.ifmap_entries, 12);
  EXPECT_EQ(config.pe_array.rf.psum_entries, 24);
  EXPECT_EQ(config.pe_array.word_bits, 16);
  EXPECT_DOUBLE_EQ(config.glb.size_kib + config.glb.filter_size_kib, 108.0);
  EXPECT_DOUBLE_EQ(config.glb.size_kib, 100.0);
  EXPECT_DOUBLE_EQ(config.clock.frequency_mhz, 200.0);
  EXPECT_DOUBLE_EQ(config.clock.voltage_v, 1.0);
  EXPECT_EQ(config.dram.word_bits, 16);
  EXPECT_GT(config.dram.bandwidth_gbps, 0.0);
}

TEST(AcceleratorConfig, OverridesReplaceValues) {
  const AcceleratorConfig config =
      load_accelerator_config(kEyeriss, {"glb.size_kib=64", "clock.frequency_mhz=100", "dram.latency_ns=80"});
  EXPECT_DOUBLE_EQ(config.glb.size_kib, 64.0);
  EXPECT_DOUBLE_EQ(config.clock.frequency_mhz, 100.0);
  EXPECT_DOUBLE_EQ(config.dram.latency_ns, 80.0);
}

TEST(AcceleratorConfig, OverriddenBadValuePointsAtCommandLine) {
  try {
    load_accelerator_config(kEyeriss, {"pe_array.rows=0"});
    FAIL() << "expected an error";
  } catch (const InputError& error) {
    EXPECT_EQ(std::string(error.what()).rfind("--set pe_array.rows=0: pe_array.rows: must be between 1", 0), 0u)
        << error.what();
  }
}

TEST(AcceleratorConfig, DramPresetsFillBandwidthLatencyAndEnergy) {
  const auto path = test::unique_temp_path("ergon_preset_only.yaml");
  std::ofstream(path) << "name: t\nclock: {frequency_mhz: 500, voltage_v: 0.8}\n"
                         "pe_array: {rows: 4, cols: 4, rf: {filter_entries: 8, ifmap_entries: 4, psum_entries: 4}}\n"
                         "glb: {size_kib: 64}\ndram: {preset: lpddr4}\n";
  const AcceleratorConfig hbm2 = load_accelerator_config(path.string(), {"dram.preset=hbm2"});
  EXPECT_DOUBLE_EQ(hbm2.dram.bandwidth_gbps, 256.0);
  EXPECT_DOUBLE_EQ(hbm2.dram.latency_ns, 28.0);
  EXPECT_DOUBLE_EQ(hbm2.dram.energy_pj_per_bit, 3.9);
  // A value written in the config wins over the preset.
  const AcceleratorConfig slow = load_accelerator_config(kEyeriss, {"dram.preset=lpddr4"});
  EXPECT_DOUBLE_EQ(slow.dram.bandwidth_gbps, 1.6);
  EXPECT_DOUBLE_EQ(slow.dram.energy_pj_per_bit, 8.0);
  for (const char* name :
       {"lpddr4", "lpddr5", "ddr4-4000", "ddr4-4400", "ddr5-4800", "ddr5-6800", "ddr5-7800", "hbm1", "hbm2"}) {
    const DramPreset* preset = find_dram_preset(name);
    ASSERT_NE(preset, nullptr) << name;
    EXPECT_GT(preset->bandwidth_gbps.value_or(0), 0.0) << name;
    EXPECT_GT(preset->latency_ns.value_or(0), 0.0) << name;
    EXPECT_GT(preset->energy_pj_per_bit.value_or(0), 0.0) << name;
  }
}

TEST(EnergyTable, DefaultTableFollowsTheCnnergySpec) {
  const EnergyTable table = load_energy_table(energy_table_path(load_accelerator_config(kEyeriss)));
  const double scale = (65.0 / 45.0) / (0.9 * 0.9);
  const WordWidthEnergies& e16 = table.at_word_bits(16);
  const double mac16 = e16.pj("mac.compute");
  EXPECT_NEAR(mac16, 0.95 * scale, 1e-12);
  for (const char* rf :
       {"rf.ifmap_read", "rf.ifmap_write", "rf.filter_read", "rf.filter_write", "rf.psum_read", "rf.psum_write"}) {
    EXPECT_NEAR(e16.pj(rf), mac16, 1e-12) << rf;
  }
  EXPECT_NEAR(e16.pj("noc.pe_hop"), 2 * mac16, 1e-12);
  EXPECT_NEAR(e16.pj("glb.read"), 6 * mac16, 1e-12);
  EXPECT_NEAR(e16.pj("glb.write"), 6 * mac16, 1e-12);
  EXPECT_NEAR(e16.pj("dram.read"), 200 * mac16, 1e-9);  // per 16-bit word
  EXPECT_EQ(e16.find("dram.read")->bits_per_access, 16);
  const WordWidthEnergies& e8 = table.at_word_bits(8);
  EXPECT_NEAR(e8.pj("mac.compute"), (0.05 / 2 + 0.9 / 4) * scale, 1e-12);
  EXPECT_NEAR(e8.pj("glb.read"), e16.pj("glb.read") / 2, 1e-12);
  EXPECT_NEAR(e8.pj("dram.read"), e16.pj("dram.read") / 2, 1e-9);
  EXPECT_THROW(table.at_word_bits(4), InputError);
}

}  // namespace
}  // namespace ergon
