// dvfs: the compute and memory domains' level tables (docs/dvfs.md).
#include <fmt/format.h>

#include <cmath>

#include "arch/config_keys.hpp"
#include "arch/dram_presets.hpp"

namespace ergon {
namespace {

// A level switch of at most a second (silicon takes microseconds): a longer one only runs into SystemC's time
// limit (arch/simulated_time.hpp) after a few switches.
constexpr NumberRule kSwitchOverheadUs{0.0, 1e6, false};

// An ascending table of (value, voltage) levels whose highest entry is the nominal operating point.
template <typename Level>
std::vector<Level> parse_levels(const YamlView& view, const char* value_key, double Level::*value, double nominal,
                                const std::string& nominal_key, const char* unit, double min_voltage_v) {
  std::vector<Level> levels;
  for (const YamlView& item : view.items()) {
    YamlMap map(item);
    Level level;
    level.*value = map.get_number(value_key, kPositive);
    level.voltage_v = map.get_number("voltage_v", kSupplyV);
    if (level.voltage_v < min_voltage_v) {
      map.at("voltage_v")
          .fail(fmt::format("{} V is below the domain's min_voltage_v ({} V)", level.voltage_v, min_voltage_v));
    }
    map.reject_unknown_keys();
    if (!levels.empty() && (level.*value <= levels.back().*value || level.voltage_v < levels.back().voltage_v)) {
      item.fail(fmt::format("levels must rise in {} with non-decreasing voltage: ({} {}, {} V) follows ({} {}, {} V)",
                            value_key, level.*value, unit, level.voltage_v, levels.back().*value, unit,
                            levels.back().voltage_v));
    }
    levels.push_back(level);
  }
  if (levels.empty()) view.fail("give at least one level");
  if (std::abs(levels.back().*value - nominal) > 1e-9 * nominal) {
    view.fail(fmt::format("the highest level ({} {}) must be the nominal {} ({} {})", levels.back().*value, unit,
                          nominal_key, nominal, unit));
  }
  return levels;
}

AcceleratorConfigKey step_key() {
  AcceleratorConfigKey key = number_key<AcceleratorConfig>(
      "dvfs.compute.step_mhz", ERGON_FIELD(dvfs.compute_step_mhz), kPositive, "MHz",
      "default level table: every step up to `clock.frequency_mhz`, voltage proportional to frequency down to "
      "`min_voltage_v`");
  return with_check<AcceleratorConfig>(key, [](YamlMap& map, const AcceleratorConfig& config) {
    // The default table has a level every step_mhz: a tiny step would ask for billions of them.
    const double frequency_mhz = config.clock.frequency_mhz, step_mhz = config.dvfs.compute_step_mhz;
    if (const double levels = std::ceil(frequency_mhz / step_mhz); levels > kMaxDvfsLevels) {
      map.at("step_mhz")
          .fail(fmt::format(
              "{} MHz steps up to clock.frequency_mhz ({} MHz) give {:.3g} levels, more than the {} a domain may "
              "have; give a step_mhz of at least {:.6g}",
              step_mhz, frequency_mhz, levels, kMaxDvfsLevels, frequency_mhz / static_cast<double>(kMaxDvfsLevels)));
    }
  });
}

AcceleratorConfigKey min_voltage_key() {
  AcceleratorConfigKey key = number_key<AcceleratorConfig>(
      "dvfs.compute.min_voltage_v", ERGON_FIELD(dvfs.compute_min_voltage_v), NumberRule{0.0, 5.0}, "V",
      "the lowest supply the compute domain runs at: the default table stops lowering the voltage here and an "
      "explicit level below it is an error; 0 = no floor (ARADA's V ~ f idealisation)");
  key.info.range = "[0, clock.voltage_v]";
  return with_check<AcceleratorConfig>(key, [](YamlMap& map, const AcceleratorConfig& config) {
    const double min_voltage_v = config.dvfs.compute_min_voltage_v;
    if (map.has("min_voltage_v") && min_voltage_v > config.clock.voltage_v) {
      map.at("min_voltage_v")
          .fail(fmt::format("{} V is above the nominal clock.voltage_v ({} V): the domain's range must contain it",
                            min_voltage_v, config.clock.voltage_v));
    }
  });
}

template <typename Level>
nlohmann::ordered_json levels_json(const std::vector<Level>& levels, const char* value_key, double Level::*value) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const Level& level : levels) list.push_back({{value_key, level.*value}, {"voltage_v", level.voltage_v}});
  return list;
}

// One domain's explicit level table: what it is called, what it steps in, its nominal point and what must
// hold after it is read. Both domains' `levels` keys are built from it.
template <typename Level>
struct LevelTable {
  const char* key;            // "dvfs.compute.levels"
  const char* default_shown;  // the default `config keys` prints
  const char* help;
  const char* alternative_key;  // the key that builds a default table instead
  const char* value_key;        // "frequency_mhz"
  double Level::*value;
  const char* unit;
  const char* nominal_key;  // "clock.frequency_mhz"
  double (*nominal)(const AcceleratorConfig&);
  double (*min_voltage_v)(const AcceleratorConfig&);
  std::vector<Level> DvfsConfig::*levels;
  void (*check)(const YamlView& levels, YamlMap& map, AcceleratorConfig& config);
};

template <typename Level>
AcceleratorConfigKey levels_key(const LevelTable<Level>& table) {
  AcceleratorConfigKey key =
      field_key<AcceleratorConfig>(table.key, ConfigKeyType::kList, table.default_shown, "",
                                   fmt::format("list of {{{}, voltage_v}}", table.value_key), table.help);
  key.load = [table](YamlMap& map, AcceleratorConfig& config) {
    const auto levels = map.find("levels");
    if (!levels) return;
    if (map.has(table.alternative_key)) {
      map.at(table.alternative_key)
          .fail(fmt::format("give either a levels table or {}, not both", table.alternative_key));
    }
    config.dvfs.*table.levels = parse_levels<Level>(*levels, table.value_key, table.value, table.nominal(config),
                                                    table.nominal_key, table.unit, table.min_voltage_v(config));
    table.check(*levels, map, config);
  };
  key.value = [table](const AcceleratorConfig& config) {
    return levels_json(config.dvfs.*table.levels, table.value_key, table.value);
  };
  return key;
}

AcceleratorConfigKey compute_levels_key() {
  return levels_key(LevelTable<ComputeLevel>{
      "dvfs.compute.levels", "from step_mhz",
      "explicit table: rising frequency, non-decreasing voltage, each at or above `min_voltage_v`, highest = the "
      "clock's point",
      "step_mhz", "frequency_mhz", &ComputeLevel::frequency_mhz, "MHz", "clock.frequency_mhz",
      [](const AcceleratorConfig& config) { return config.clock.frequency_mhz; },
      [](const AcceleratorConfig& config) { return config.dvfs.compute_min_voltage_v; }, &DvfsConfig::compute_levels,
      [](const YamlView& levels, YamlMap& /*map*/, AcceleratorConfig& config) {
        if (std::abs(config.dvfs.compute_levels.back().voltage_v - config.clock.voltage_v) > 1e-9) {
          levels.fail(fmt::format("the highest level's voltage ({} V) must be clock.voltage_v ({} V)",
                                  config.dvfs.compute_levels.back().voltage_v, config.clock.voltage_v));
        }
      }});
}

AcceleratorConfigSection compute_keys() {
  AcceleratorConfigSection section = config_section("dvfs.compute");
  section.keys = {
      number_key<AcceleratorConfig>("dvfs.compute.switch_overhead_us", ERGON_FIELD(dvfs.compute_switch_overhead_us),
                                    kSwitchOverheadUs, "us",
                                    "the compute clock stops this long when its level changes (`docs/dvfs.md`)"),
      step_key(),
      min_voltage_key(),
      compute_levels_key(),
  };
  return section;
}

AcceleratorConfigKey memory_steps_key() {
  AcceleratorConfigKey key = field_key<AcceleratorConfig>(
      "dvfs.memory.steps", ConfigKeyType::kInteger, "none (16 for custom)", "", "[1, 4096]",
      "instead of the preset's data rates: equal bandwidth steps up to `dram.bandwidth_gbps`, all at `voltage_v`");
  key.load = [](YamlMap& map, AcceleratorConfig& config) {
    if (map.has("steps")) config.dvfs.memory_steps = map.get_int("steps", IntRule{1, kMaxDvfsLevels});
  };
  key.value = [](const AcceleratorConfig& config) {
    return config.dvfs.memory_steps > 0 ? nlohmann::ordered_json(config.dvfs.memory_steps) : nlohmann::ordered_json();
  };
  return key;
}

AcceleratorConfigKey memory_levels_key() {
  return levels_key(
      LevelTable<MemoryLevel>{"dvfs.memory.levels", "the preset's data rates",
                              "explicit table, highest = `dram.bandwidth_gbps` (`docs/dvfs.md`)", "steps",
                              "bandwidth_gbps", &MemoryLevel::bandwidth_gbps, "GB/s", "dram.bandwidth_gbps",
                              [](const AcceleratorConfig& config) { return config.dram.bandwidth_gbps; },
                              [](const AcceleratorConfig& /*config*/) { return 0.0; }, &DvfsConfig::memory_levels,
                              [](const YamlView& /*levels*/, YamlMap& map, AcceleratorConfig& config) {
                                if (map.has("voltage_v"))
                                  map.at("voltage_v").fail("with a levels table, the highest level gives the voltage");
                                config.dvfs.memory_voltage_v = config.dvfs.memory_levels.back().voltage_v;
                              }});
}

AcceleratorConfigSection memory_keys() {
  AcceleratorConfigSection section = config_section("dvfs.memory");
  section.keys = {
      number_key<AcceleratorConfig>("dvfs.memory.switch_overhead_us", ERGON_FIELD(dvfs.memory_switch_overhead_us),
                                    kSwitchOverheadUs, "us", "the DRAM bus stops this long when its level changes"),
      memory_steps_key(),
      number_key<AcceleratorConfig>("dvfs.memory.voltage_v", ERGON_FIELD(dvfs.memory_voltage_v), kSupplyV, "V",
                                    "the DRAM supply; the same at every default level (only ratios price energy)"),
      memory_levels_key(),
  };
  return section;
}

// Defaults. Compute: every step_mhz up to the nominal point, V ~ f (ARADA's assumption) but never below
// min_voltage_v. Memory: the data rates the DRAM preset can be clocked at (or `steps` equal bandwidth
// steps; a custom DRAM has no known rates: 16 steps), all at the DRAM's fixed supply.
void fill_default_levels(const ClockConfig& clock, const DramConfig& dram, DvfsConfig& dvfs) {
  if (dvfs.compute_levels.empty()) {
    for (double f = dvfs.compute_step_mhz; f < clock.frequency_mhz - 1e-9; f += dvfs.compute_step_mhz) {
      dvfs.compute_levels.push_back(
          {f, std::max(dvfs.compute_min_voltage_v, clock.voltage_v * f / clock.frequency_mhz)});
    }
    dvfs.compute_levels.push_back({clock.frequency_mhz, clock.voltage_v});
  }
  if (!dvfs.memory_levels.empty()) return;
  const DramPreset* preset = find_dram_preset(dram.preset);
  if (dvfs.memory_steps == 0 && preset != nullptr && !preset->data_rates_mtps.empty()) {
    const double rated_mtps = preset->data_rates_mtps.back();
    for (double rate_mtps : preset->data_rates_mtps) {
      dvfs.memory_levels.push_back({dram.bandwidth_gbps * rate_mtps / rated_mtps, dvfs.memory_voltage_v});
    }
    return;
  }
  const std::int64_t steps = dvfs.memory_steps > 0 ? dvfs.memory_steps : 16;
  for (std::int64_t step = 1; step <= steps; ++step) {
    const double share = static_cast<double>(step) / static_cast<double>(steps);
    dvfs.memory_levels.push_back({dram.bandwidth_gbps * share, dvfs.memory_voltage_v});
  }
}

AcceleratorConfigSection default_levels() {
  AcceleratorConfigSection section = config_section("dvfs");
  section.check = [](YamlMap& /*dvfs*/, YamlMap& /*root*/, AcceleratorConfig& config) {
    fill_default_levels(config.clock, config.dram, config.dvfs);
  };
  return section;
}

}  // namespace
}  // namespace ergon

ERGON_REGISTER(ergon::AcceleratorConfigSection, "dvfs.compute", ergon::compute_keys(), ergon::config_order::kDvfs)
ERGON_REGISTER(ergon::AcceleratorConfigSection, "dvfs.memory", ergon::memory_keys(), ergon::config_order::kDvfs)
ERGON_REGISTER(ergon::AcceleratorConfigSection, "dvfs default levels", ergon::default_levels(),
               ergon::config_order::kDvfsLevels)
