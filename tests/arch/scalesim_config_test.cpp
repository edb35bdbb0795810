// SCALE-Sim .cfg files convert into systolic accelerator configs that load, with located errors.
#include "arch/importers/scalesim_config.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "arch/accelerator_config.hpp"
#include "common/input_error.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

std::string write_temp(const std::string& name, const std::string& content) {
  const auto path = test::unique_temp_path(name);
  std::ofstream(path) << content;
  return path.string();
}

TEST(ScaleSimConfig, ShippedExampleBecomesALoadableSystolicConfig) {
  const ScaleSimConfig cfg = read_scalesim_config(test::data_dir() + "/scalesim/scale.cfg");
  EXPECT_EQ(cfg.array_height, 32);
  EXPECT_EQ(cfg.array_width, 32);
  EXPECT_EQ(cfg.dataflow, "os");
  EXPECT_TRUE(cfg.calc_bandwidth);
  const std::string yaml = write_temp("ergon_scalesim_config.yaml", scalesim_config_yaml(cfg, "scale.cfg"));
  const AcceleratorConfig config = load_accelerator_config(yaml);
  EXPECT_EQ(config.pe_array.impl, "systolic");
  EXPECT_EQ(config.pe_array.rows, 32);
  EXPECT_EQ(config.pe_array.word_bits, 8);
  EXPECT_DOUBLE_EQ(config.glb.size_kib, 128.0);  // ifmap + ofmap buffers
  EXPECT_DOUBLE_EQ(config.glb.ofmap_size_kib, 64.0);
  EXPECT_DOUBLE_EQ(config.glb.filter_size_kib, 64.0);
  EXPECT_GE(config.dram.bandwidth_gbps, 1e6);  // CALC: stall-free
}

TEST(ScaleSimConfig, UserBandwidthIsWordsPerCycleAtOneGigahertz) {
  const std::string cfg = write_temp("ergon_scalesim_user.cfg",
                                     "[general]\nrun_name = t\n[architecture_presets]\nArrayHeight: 8\nArrayWidth: 16\n"
                                     "IfmapSramSzkB: 32\nFilterSramSzkB: 32\nOfmapSramSzkB: 16\nBandwidth : 10\n"
                                     "Dataflow : ws\nMemoryBanks: 1\n[run_presets]\nInterfaceBandwidth: USER\n");
  const ScaleSimConfig parsed = read_scalesim_config(cfg);
  EXPECT_FALSE(parsed.calc_bandwidth);
  const AcceleratorConfig config =
      load_accelerator_config(write_temp("ergon_scalesim_user.yaml", scalesim_config_yaml(parsed, cfg)));
  EXPECT_DOUBLE_EQ(config.dram.bandwidth_gbps, 10.0);
  EXPECT_EQ(config.pe_array.dataflow, SystolicDataflow::kWeightStationary);
}

TEST(ScaleSimConfig, BadValuesAreLocated) {
  const std::string cfg =
      write_temp("ergon_scalesim_bad.cfg", "[architecture_presets]\nArrayHeight: 8\nArrayWidth: wide\n");
  try {
    read_scalesim_config(cfg);
    FAIL() << "expected an error";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what())
                  .find(cfg + ":3:1: ArrayWidth: expected a whole number of PEs from 1 to 65536, got 'wide'"),
              std::string::npos)
        << error.what();
  }
  const std::string flow = write_temp("ergon_scalesim_flow.cfg",
                                      "[architecture_presets]\nArrayHeight: 8\nArrayWidth: 8\nIfmapSramSzkB: 1\n"
                                      "FilterSramSzkB: 1\nOfmapSramSzkB: 1\nDataflow: rs\n");
  EXPECT_THROW(read_scalesim_config(flow), InputError);
}

// Read as SCALE-Sim's configparser reads it: case-insensitive keys, ';' comments, repeats rejected; v3 keys
// Ergon does not model are named in warnings.
const char* kV3Config =
    "[general]\nrun_name = v3\n; a configparser comment\n[architecture_presets]\narrayheight : 16\n"
    "ArrayWidth : 16\nIfmapSramSzkB : 64\nFilterSramSzkB : 64\nOfmapSramSzkB : 64\nIfmapOffset : 0\n"
    "Dataflow : OS\nReadRequestBuffer : 32\n[sparsity]\nSparsitySupport : true\nSparseRep : ellpack_block\n"
    "[run_presets]\nInterfaceBandwidth : CALC\nUseRamulatorTrace : False\n";

TEST(ScaleSimConfig, ReadsLikeConfigParserAndNamesTheV3KeysItDoesNotModel) {
  const ScaleSimConfig cfg = read_scalesim_config(write_temp("ergon_scalesim_v3.cfg", kV3Config));
  EXPECT_EQ(cfg.array_height, 16);
  EXPECT_EQ(cfg.dataflow, "os");
  std::string warnings;
  for (const auto& w : cfg.warnings) warnings += w + "\n";
  EXPECT_EQ(warnings.find("ifmapoffset"), std::string::npos) << "an address offset does not change timing";
  EXPECT_NE(warnings.find("[architecture_presets] readrequestbuffer = 32 is not modelled"), std::string::npos)
      << warnings;
  EXPECT_NE(warnings.find("[sparsity] sparsitysupport = true is not modelled by Ergon (sparse"), std::string::npos);
  EXPECT_NE(warnings.find("[sparsity] sparserep"), std::string::npos);
  EXPECT_EQ(warnings.find("useramulatortrace"), std::string::npos) << "a disabled feature needs no warning";
  EXPECT_EQ(cfg.warnings.size(), 3u) << warnings;
}

TEST(ScaleSimConfig, RejectsRepeatedKeysAndSectionsAsConfigParserDoes) {
  const std::string repeated_key =
      write_temp("ergon_scalesim_repeated_key.cfg",
                 "[architecture_presets]\nArrayHeight : 16\nArrayWidth : 16\narrayheight : 32\n");
  try {
    read_scalesim_config(repeated_key);
    FAIL() << "no error";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find(":4:1: arrayheight: the key repeats line 2 in [architecture_presets]"),
              std::string::npos)
        << error.what();
  }
  const std::string repeated_section =
      write_temp("ergon_scalesim_repeated_section.cfg", "[general]\nrun_name = a\n[general]\nrun_name = b\n");
  try {
    read_scalesim_config(repeated_section);
    FAIL() << "no error";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find(":3:1: [general]: the section repeats line 1"), std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace ergon
