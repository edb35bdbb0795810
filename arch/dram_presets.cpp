#include "arch/dram_presets.hpp"

namespace ergon {

const std::vector<DramPreset>& dram_presets() {
  // Technology presets with cited figures are added with the DRAM model; "custom" takes every value
  // from the config.
  static const std::vector<DramPreset> presets = {
      {"custom", std::nullopt, std::nullopt, std::nullopt, "values given in the config"},
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
