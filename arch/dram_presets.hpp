#pragma once
// Named DRAM technologies selectable with `dram.preset`. Each entry gives defaults that the config's
// own keys may override; "custom" has none, so bandwidth and latency must then be given.
#include <optional>
#include <string>
#include <vector>

namespace ergon {

struct DramPreset {
  std::string name;
  std::optional<double> bandwidth_gbps;
  std::optional<double> latency_ns;
  std::optional<double> energy_pj_per_bit;
  std::string source;
  // The data rates (MT/s) the device can be clocked at, ascending, ending at its rated one: memory-side
  // DVFS levels (docs/dvfs.md). Empty for "custom".
  std::vector<double> data_rates_mtps;
};

const std::vector<DramPreset>& dram_presets();
const DramPreset* find_dram_preset(const std::string& name);

}  // namespace ergon
