// dram: the DRAM technology (a preset, docs/dram.md) and model; the model adds its own keys
// (impl/*_keys.cpp), and may derive some of these from the preset.
#include "arch/components.hpp"
#include "arch/config_keys.hpp"
#include "arch/dram_presets.hpp"
#include "common/energy_bounds.hpp"

namespace ergon {
namespace {

std::vector<std::string> preset_names() {
  std::vector<std::string> names;
  for (const auto& known : dram_presets()) names.push_back(known.name);
  return names;
}

AcceleratorConfigKey preset_key() {
  AcceleratorConfigKey key = text_key<AcceleratorConfig>(
      "dram.preset", ERGON_FIELD(dram.preset), "DRAM technology; `custom` takes every value from this section", true);
  key.info.type = ConfigKeyType::kChoice;
  key.choices = preset_names;
  key.load = [](YamlMap& map, AcceleratorConfig& config) {
    const YamlView view = map.at("preset");
    const std::string name = view.as_string();
    const DramPreset* preset = find_dram_preset(name);
    if (preset == nullptr) {
      const std::string suggestion = closest_match(name, preset_names());
      view.fail(
          "unknown DRAM preset '" + name + "'; " +
          (suggestion.empty() ? "known: " + join_alternatives(preset_names()) : "did you mean '" + suggestion + "'?"));
    }
    config.dram.preset = preset->name;  // the canonical spelling
  };
  return key;
}

// A figure the preset gives (then the config may override it), else required.
template <typename Access>
AcceleratorConfigKey preset_figure_key(std::string path, Access access, std::optional<double> DramPreset::*figure,
                                       NumberRule rule, std::string unit, std::string help) {
  AcceleratorConfigKey key =
      number_key<AcceleratorConfig>(std::move(path), access, rule, std::move(unit), std::move(help));
  key.info.default_text = "from the preset (required for custom)";
  const std::string leaf = key_leaf(key.info.path);
  key.load = [access, figure, rule, leaf](YamlMap& map, AcceleratorConfig& config) {
    const std::optional<double>& value = find_dram_preset(config.dram.preset)->*figure;
    if (value && !map.has(leaf)) {
      access(config) = *value;
      return;
    }
    if (!map.has(leaf)) map.view().fail("missing '" + leaf + "' (DRAM preset '" + config.dram.preset + "' gives none)");
    access(config) = map.get_number(leaf, rule);
  };
  return key;
}

AcceleratorConfigKey energy_key() {
  AcceleratorConfigKey key =
      number_key<AcceleratorConfig>("dram.energy_pj_per_bit", ERGON_FIELD(dram.energy_pj_per_bit), kEnergyPerAccessPj,
                                    "pJ/bit", "0 = price DRAM words with the energy table");
  key.info.default_text = "from the preset, else 0";
  key.load = [](YamlMap& map, AcceleratorConfig& config) {
    const DramPreset* preset = find_dram_preset(config.dram.preset);
    config.dram.energy_pj_per_bit =
        map.get_number("energy_pj_per_bit", preset->energy_pj_per_bit.value_or(0.0), kEnergyPerAccessPj);
  };
  return key;
}

AcceleratorConfigSection dram_keys() {
  AcceleratorConfigSection section = config_section("dram", true);
  section.keys = {
      preset_key(),
      plugin_key<AcceleratorConfig>("dram.impl", ERGON_FIELD(dram.impl), dram_impl_names,
                                    "DRAM model: a bandwidth pipe (simple), banks, rows, JEDEC timing and IDD energy "
                                    "(banked), or SCALE-Sim's one full-bandwidth port per operand stream (streams); "
                                    "docs/dram.md"),
      word_bits_key("dram.word_bits", ERGON_FIELD(dram.word_bits), "word width of DRAM traffic"),
      preset_figure_key("dram.bandwidth_gbps", ERGON_FIELD(dram.bandwidth_gbps), &DramPreset::bandwidth_gbps,
                        NumberRule{kMinDramBandwidthGbps, kMaxDramBandwidthGbps, false}, "GB/s",
                        "peak bandwidth, 10^9 bytes/s"),
      preset_figure_key("dram.latency_ns", ERGON_FIELD(dram.latency_ns), &DramPreset::latency_ns,
                        NumberRule{0.0, 1e6, false}, "ns", "access latency"),
      int_key<AcceleratorConfig>("dram.request_queue_depth", ERGON_FIELD(dram.request_queue_depth), IntRule{1, 1 << 20},
                                 "requests", "outstanding requests"),
      energy_key(),
  };
  return section;
}

}  // namespace
}  // namespace ergon

ERGON_REGISTER(ergon::AcceleratorConfigSection, "dram", ergon::dram_keys(), ergon::config_order::kDram)
