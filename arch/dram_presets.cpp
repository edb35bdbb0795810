#include "arch/dram_presets.hpp"

#include "common/text.hpp"

namespace ergon {

// Figures and their sources are listed in docs/dram.md. Bandwidth = data rate x bus width for the stated
// configuration; latency = tRCD + tCL; energy per bit as published, or derived where marked there.
const std::vector<DramPreset>& dram_presets() {
  static const std::vector<DramPreset> presets = {
      {"custom", std::nullopt, std::nullopt, std::nullopt, "values given in the config", {}},
      {"lpddr4", 25.6, 38.1, 8.0, "LPDDR4-3200, x64 (two x32 channels)", {533, 1066, 1600, 2133, 2667, 3200}},
      {"lpddr5",
       51.2,
       43.75,
       5.6,
       "LPDDR5-6400, x64; energy derived (LPDDR4 x 0.7)",
       {1600, 2133, 2750, 3200, 3733, 4267, 5500, 6400}},
      {"ddr4-4000",
       32.0,
       22.0,
       5.5,
       "DDR4-4000 (XMP 19-25-25), 64-bit channel; energy derived",
       {1600, 1866, 2133, 2400, 2666, 2933, 3200, 4000}},
      {"ddr4-4400",
       35.2,
       17.3,
       5.5,
       "DDR4-4400 (XMP CL19), 64-bit channel; energy derived",
       {1600, 1866, 2133, 2400, 2666, 2933, 3200, 4400}},
      {"ddr5-4800",
       38.4,
       28.3,
       4.6,
       "DDR5-4800AN, 64-bit (2 x 32) channel; energy derived",
       {3200, 3600, 4000, 4400, 4800}},
      {"ddr5-6800",
       54.4,
       28.2,
       4.6,
       "DDR5-6800AN, 64-bit (2 x 32) channel; energy derived",
       {3200, 3600, 4000, 4400, 4800, 5200, 5600, 6000, 6400, 6800}},
      {"ddr5-7800",
       62.4,
       28.4,
       4.6,
       "DDR5-7800, 64-bit channel; latency of the nearest bin (7600AN); energy derived",
       {3200, 3600, 4000, 4400, 4800, 5200, 5600, 6000, 6400, 6800, 7200, 7600, 7800}},
      {"hbm1", 128.0, 28.0, 7.0, "HBM1, one stack (8 x 128-bit channels, 1 Gb/s/pin)", {500, 1000}},
      {"hbm2", 256.0, 28.0, 3.9, "HBM2, one stack (8 x 128-bit channels, 2 Gb/s/pin)", {1000, 1600, 2000}},
  };
  return presets;
}

const DramPreset* find_dram_preset(const std::string& name) {
  for (const auto& preset : dram_presets()) {
    if (preset.name == ascii_lower(name)) return &preset;  // "LPDDR4" as papers write it
  }
  return nullptr;
}

}  // namespace ergon
