#include "arch/dram_presets.hpp"

namespace ergon {

// Figures and their sources are listed in docs/dram.md. Bandwidth = data rate x bus width for the stated
// configuration; latency = tRCD + tCL; energy per bit as published, or derived where marked there.
const std::vector<DramPreset>& dram_presets() {
  static const std::vector<DramPreset> presets = {
      {"custom", std::nullopt, std::nullopt, std::nullopt, "values given in the config"},
      {"lpddr4", 25.6, 38.1, 8.0, "LPDDR4-3200, x64 (two x32 channels)"},
      {"lpddr5", 51.2, 43.75, 5.6, "LPDDR5-6400, x64; energy derived (LPDDR4 x 0.7)"},
      {"ddr4-4000", 32.0, 22.0, 5.5, "DDR4-4000 (XMP 19-25-25), 64-bit channel; energy derived"},
      {"ddr4-4400", 35.2, 17.3, 5.5, "DDR4-4400 (XMP CL19), 64-bit channel; energy derived"},
      {"ddr5-4800", 38.4, 28.3, 4.6, "DDR5-4800AN, 64-bit (2 x 32) channel; energy derived"},
      {"ddr5-6800", 54.4, 28.2, 4.6, "DDR5-6800AN, 64-bit (2 x 32) channel; energy derived"},
      {"ddr5-7800", 62.4, 28.4, 4.6, "DDR5-7800, 64-bit channel; latency of the nearest bin (7600AN); energy derived"},
      {"hbm1", 128.0, 28.0, 7.0, "HBM1, one stack (8 x 128-bit channels, 1 Gb/s/pin)"},
      {"hbm2", 256.0, 28.0, 3.9, "HBM2, one stack (8 x 128-bit channels, 2 Gb/s/pin)"},
  };
  return presets;
}

const DramPreset* find_dram_preset(const std::string& name) {
  for (const auto& preset : dram_presets()) {
    if (preset.name == name) return &preset;
  }
  return nullptr;
}

}  // namespace ergon
