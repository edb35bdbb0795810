#pragma once
// The accelerator config's schema (common/config_schema.hpp): each part declares the keys it takes in a
// `*_keys.cpp` beside it and registers them with
//   ERGON_REGISTER(AcceleratorConfigSection, "name", section, config_order::kSomething)
// The loader (accelerator_config.cpp) reads the sections in that order, `config show` prints their values,
// `config keys` lists them. The `*_keys.cpp` files form the ergon_config_keys library, linked whole.
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "arch/accelerator_config.hpp"
#include "common/config_schema.hpp"
#include "common/registry.hpp"

namespace ergon {

using AcceleratorConfigKey = ConfigKey<AcceleratorConfig>;
using AcceleratorConfigSection = ConfigSection<AcceleratorConfig>;
using AcceleratorConfigSections = Registry<AcceleratorConfigSection>;

// The loading order of the sections: a section may read what an earlier one loaded (the dvfs levels need
// the clock and the DRAM); a plug-in's section follows the one that chooses it.
namespace config_order {
constexpr int kTop = 0, kClock = 10, kPeArray = 20, kPeArrayPlugin = 21, kGlb = 30, kGlbPlugin = 31, kNoc = 40,
              kNocPlugin = 41, kCommands = 45, kDram = 50, kDramPlugin = 51, kDramPricing = 52, kArrayChecks = 55,
              kDvfs = 60, kDvfsLevels = 61, kStudy = 70, kEnergy = 80, kMapper = 90;
}

// A section reading the mapping at `path`; `required`: the mapping must be given; `applies`: the plug-in whose
// keys these are.
inline AcceleratorConfigSection config_section(std::string path, bool required = false, AppliesWhen applies = {}) {
  AcceleratorConfigSection section;
  section.path = std::move(path);
  section.required = required;
  section.applies = std::move(applies);
  return section;
}

// Rules several sections share.
inline constexpr NumberRule kClockMhz{0.001, 100000.0, false};  // slower than 1 kHz only reaches SystemC's time limit
inline constexpr NumberRule kSupplyV{0.0, 5.0, true};

// A datapath word width: 8 or 16 bits.
template <typename Access>
AcceleratorConfigKey word_bits_key(std::string path, Access access, std::string help) {
  AcceleratorConfigKey key =
      int_key<AcceleratorConfig>(std::move(path), access, IntRule{8, 16}, "bits", std::move(help));
  key.info.range = "8 or 16";
  const std::string leaf = key_leaf(key.info.path);
  key.load = [access, leaf](YamlMap& map, AcceleratorConfig& config) {
    const auto view = map.find(leaf);
    if (!view) return;
    const std::int64_t bits = view->as_int();
    if (bits != 8 && bits != 16) view->fail(fmt::format("word width must be 8 or 16 bits (got {})", bits));
    access(config) = static_cast<int>(bits);
  };
  return key;
}

// Every declared key in loading order, with when it applies.
std::vector<ConfigKeyInfo> accelerator_config_keys();
// The loaded value of every key that applies to `config`, nested as the YAML nests them (`config show`).
nlohmann::ordered_json accelerator_config_values(const AcceleratorConfig& config);
// Whether the section applies to `config`: a plug-in's section when its plug-in is chosen.
bool section_applies(const AcceleratorConfigSection& section, const AcceleratorConfig& config);

}  // namespace ergon
