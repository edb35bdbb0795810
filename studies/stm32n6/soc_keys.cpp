// soc: a microcontroller around the accelerator, for `ergon bench-phases` (configs/stm32n6.yaml,
// docs/stm32n6.md): its operating points, supply rails and the cost model of the CPU phases. The study's
// own section of the accelerator config (soc_config.hpp), registered with the config's schema like a part's.
#include <map>

#include "arch/config_keys.hpp"
#include "studies/stm32n6/soc_config.hpp"

namespace ergon {
namespace {

bool has_soc(const AcceleratorConfig& config) {
  return find_soc(config) != nullptr;
}

bool is_in(const std::string& name, const char* const (&names)[2]) {
  return name == names[0] || name == names[1];
}
bool is_in(const std::string& name, const char* const (&names)[3]) {
  return name == names[0] || name == names[1] || name == names[2];
}

AcceleratorConfigKey operating_points_key() {
  AcceleratorConfigKey key = field_key<AcceleratorConfig>("soc.operating_points", ConfigKeyType::kMapping, kRequired,
                                                          "", "", "the SoC's operating points by name");
  key.load = [](YamlMap& map, AcceleratorConfig& config) {
    SocConfig& soc = soc_of(config);
    YamlMap points = map.get_map("operating_points");
    for (const auto& entry : points.view().node()) {
      const std::string name = entry.first.as<std::string>();
      YamlMap point = points.get_map(name);
      SocOperatingPoint p;
      p.name = name;
      p.core_voltage_v = point.get_number("core_voltage_v", kSupplyV);
      // The NPU clock becomes clock.frequency_mhz: the same range.
      p.cpu_mhz = point.get_number("cpu_mhz", kClockMhz);
      p.npu_mhz = point.get_number("npu_mhz", kClockMhz);
      p.ram_mhz = point.get_number("ram_mhz", kClockMhz);
      point.reject_unknown_keys();
      soc.operating_points.push_back(p);
    }
    if (soc.operating_points.empty()) points.view().fail("give at least one operating point");
  };
  key.value = [](const AcceleratorConfig& config) {
    nlohmann::ordered_json points = nlohmann::ordered_json::object();
    for (const SocOperatingPoint& p : soc_of(config).operating_points) {
      points[p.name] = {
          {"core_voltage_v", p.core_voltage_v}, {"cpu_mhz", p.cpu_mhz}, {"npu_mhz", p.npu_mhz}, {"ram_mhz", p.ram_mhz}};
    }
    return points;
  };
  return key;
}

std::vector<AcceleratorConfigKey> operating_point_fields() {
  const std::string clock_range = range_text(kClockMhz);
  return {
      field_key<AcceleratorConfig>("soc.operating_points.<name>.core_voltage_v", ConfigKeyType::kNumber, kRequired, "V",
                                   range_text(kSupplyV), "VDDCORE at this point"),
      field_key<AcceleratorConfig>("soc.operating_points.<name>.cpu_mhz", ConfigKeyType::kNumber, kRequired, "MHz",
                                   clock_range, "CPU clock"),
      field_key<AcceleratorConfig>("soc.operating_points.<name>.npu_mhz", ConfigKeyType::kNumber, kRequired, "MHz",
                                   clock_range, "NPU clock (the simulated clock.frequency_mhz)"),
      field_key<AcceleratorConfig>("soc.operating_points.<name>.ram_mhz", ConfigKeyType::kNumber, kRequired, "MHz",
                                   clock_range, "internal RAM clock"),
  };
}

AcceleratorConfigKey reference_point_key() {
  AcceleratorConfigKey key = text_key<AcceleratorConfig>(
      "soc.reference_point", [](auto& config) -> auto& { return soc_of(config).reference_point; },
      "the operating point the fitted values were fitted at", true);
  key.load = [](YamlMap& map, AcceleratorConfig& config) {
    SocConfig& soc = soc_of(config);
    soc.reference_point = map.get_string("reference_point");
    try {
      soc.point(soc.reference_point);
    } catch (const std::invalid_argument& error) {
      map.at("reference_point").fail(error.what());
    }
  };
  return key;
}

// rails: {name: {voltage: core | voltage_v: V, measured: bool, blocks: [...]}}; every energy block on one rail.
std::vector<SocRail> parse_rails(YamlMap map) {
  std::vector<SocRail> rails;
  std::map<std::string, std::string> rail_of_block;
  for (const auto& entry : map.view().node()) {
    SocRail rail;
    rail.name = entry.first.as<std::string>();
    YamlMap r = map.get_map(rail.name);
    const bool has_voltage = r.has("voltage"), has_fixed = r.has("voltage_v");
    if (has_voltage == has_fixed) r.view().fail("give either `voltage: core` or a fixed `voltage_v`");
    if (has_voltage && r.get_string("voltage") != "core")
      r.at("voltage").fail("the only rail voltage by name is `core`");
    rail.follows_core = has_voltage;
    if (has_fixed) rail.voltage_v = r.get_number("voltage_v", kSupplyV);
    rail.measured = r.get_bool("measured", rail.measured);
    const YamlView blocks = r.at("blocks");
    for (const YamlView& item : blocks.items()) {
      const std::string block = item.as_string();
      if (!is_in(block, kSocEnergyBlocks) && !is_in(block, kSocTimeOnlyBlocks))
        item.fail("unknown block '" + block + "': give cpu, npu, internal_ram, external_flash or serial");
      if (!rail_of_block.emplace(block, rail.name).second)
        item.fail("block '" + block + "' is already on rail '" + rail_of_block[block] + "'");
      if (is_in(block, kSocTimeOnlyBlocks) && rail.measured)
        item.fail("block '" + block + "' has no energy model: it can only sit on a rail with `measured: false`");
      rail.blocks.push_back(block);
    }
    r.reject_unknown_keys();
    rails.push_back(rail);
  }
  for (const char* block : kSocEnergyBlocks) {
    if (rail_of_block.count(block) == 0) map.view().fail(std::string("put block '") + block + "' on a rail");
  }
  return rails;
}

AcceleratorConfigKey rails_key() {
  AcceleratorConfigKey key = field_key<AcceleratorConfig>(
      "soc.rails", ConfigKeyType::kMapping, "one measured VDDCORE rail feeding cpu, npu and internal_ram", "", "",
      "which supply feeds `cpu`, `npu`, `internal_ram` (each on exactly one rail) and the time-only "
      "`external_flash`, `serial` (only on a `measured: false` rail); only measured rails enter the phase energies");
  key.load = [](YamlMap& map, AcceleratorConfig& config) {
    soc_of(config).rails =
        map.has("rails") ? parse_rails(map.get_map("rails"))
                         : std::vector<SocRail>{SocRail{"vddcore", true, 0, true, {"cpu", "npu", "internal_ram"}}};
  };
  key.value = [](const AcceleratorConfig& config) {
    nlohmann::ordered_json rails = nlohmann::ordered_json::object();
    for (const SocRail& rail : soc_of(config).rails) {
      nlohmann::ordered_json& r = rails[rail.name];
      if (rail.follows_core) {
        r["voltage"] = "core";
      } else {
        r["voltage_v"] = rail.voltage_v;
      }
      r["measured"] = rail.measured;
      r["blocks"] = rail.blocks;
    }
    return rails;
  };
  return key;
}

std::vector<AcceleratorConfigKey> rail_fields() {
  return {
      field_key<AcceleratorConfig>("soc.rails.<name>.voltage", ConfigKeyType::kChoice, "", "", "core",
                                   "the rail is VDDCORE: it follows the point's core_voltage_v (or give voltage_v)"),
      field_key<AcceleratorConfig>("soc.rails.<name>.voltage_v", ConfigKeyType::kNumber, "", "V", range_text(kSupplyV),
                                   "a fixed rail voltage (or give voltage: core)"),
      field_key<AcceleratorConfig>("soc.rails.<name>.measured", ConfigKeyType::kBoolean, "true", "", "",
                                   "the rail is behind the power shunt"),
      field_key<AcceleratorConfig>("soc.rails.<name>.blocks", ConfigKeyType::kList, kRequired, "",
                                   "cpu, npu, internal_ram, external_flash, serial", "the blocks the rail feeds"),
  };
}

#define ERGON_SOC(member)         \
  [](auto& config) -> auto& {     \
    return soc_of(config).member; \
  }

AcceleratorConfigSection soc_keys() {
  AcceleratorConfigSection section = config_section("soc");
  section.present = has_soc;
  section.keys = {operating_points_key()};
  for (const AcceleratorConfigKey& field : operating_point_fields()) section.keys.push_back(field);
  section.keys.push_back(reference_point_key());
  section.keys.push_back(number_key<AcceleratorConfig>("soc.ram_bytes_per_cycle", ERGON_SOC(ram_bytes_per_cycle),
                                                       kPositive, "B/cycle",
                                                       "NPU <-> internal RAM: bandwidth = ram_mhz x this"));
  section.keys.push_back(rails_key());
  for (const AcceleratorConfigKey& field : rail_fields()) section.keys.push_back(field);
  section.keys.push_back(number_key<AcceleratorConfig>("soc.idle_us", ERGON_SOC(idle_us), kNonNegative, "us",
                                                       "trace only: between runs (not measured in the paper)"));
  return section;
}

AcceleratorConfigSection cpu_keys() {
  AcceleratorConfigSection section = config_section("soc.cpu", true);
  section.present = has_soc;
  section.keys = {
      number_key<AcceleratorConfig>("soc.cpu.pre_inference_cycles", ERGON_SOC(pre_inference_cycles), kNonNegative,
                                    "cycles", "fitted: fixed work before the input copy", true),
      number_key<AcceleratorConfig>("soc.cpu.flash_bytes_per_us", ERGON_SOC(flash_bytes_per_us), kPositive, "B/us",
                                    "fitted: external flash -> internal RAM copy rate", true),
      number_key<AcceleratorConfig>("soc.cpu.post_inference_cycles", ERGON_SOC(post_inference_cycles), kNonNegative,
                                    "cycles", "fitted: fixed post-processing", true),
      number_key<AcceleratorConfig>("soc.cpu.cycles_per_output", ERGON_SOC(cycles_per_output), kNonNegative, "cycles",
                                    "fitted: per output value", true),
      number_key<AcceleratorConfig>("soc.cpu.serial_baud", ERGON_SOC(serial_baud), kPositive, "baud",
                                    "assumed (the paper gives none)"),
      number_key<AcceleratorConfig>("soc.cpu.serial_bytes", ERGON_SOC(serial_bytes), kNonNegative, "B",
                                    "assumed: one prediction message per inference"),
      number_key<AcceleratorConfig>("soc.cpu.power_mw", ERGON_SOC(cpu_power_mw), kNonNegative, "mW",
                                    "fitted: core-domain power while the CPU works", true),
      bool_key<AcceleratorConfig>("soc.cpu.npu_clock_running", ERGON_SOC(npu_clock_running),
                                  "assumed: the NPU clock tree ticks in the CPU phases (gated only in inference)"),
      bool_key<AcceleratorConfig>("soc.cpu.runs_during_inference", ERGON_SOC(cpu_runs_during_inference),
                                  "assumed: the CPU's own power is drawn through the inference too"),
  };
  return section;
}

AcceleratorConfigSection static_keys() {
  AcceleratorConfigSection section = config_section("soc.static");
  section.present = has_soc;
  section.keys = {
      number_key<AcceleratorConfig>("soc.static.power_mw", ERGON_SOC(static_power_mw), kNonNegative, "mW",
                                    "core-domain leakage at the reference point, x (V/V_ref) x exp((V - V_ref)/slope), "
                                    "in every phase; assumed"),
      number_key<AcceleratorConfig>("soc.static.dibl_slope_mv", ERGON_SOC(leakage_dibl_slope_mv), kPositive, "mV",
                                    "subthreshold leakage's e-fold per VDD step (n kT/q / DIBL); assumed"),
  };
  return section;
}

AcceleratorConfigSection npu_keys() {
  AcceleratorConfigSection section = config_section("soc.npu", true);
  section.present = has_soc;
  section.keys = {
      number_key<AcceleratorConfig>("soc.npu.layer_overhead_cycles", ERGON_SOC(npu_layer_overhead_cycles), kNonNegative,
                                    "cycles", "fitted: per executed layer (set-up the simulation does not model)",
                                    true),
      number_key<AcceleratorConfig>("soc.npu.baseline_power_mw", ERGON_SOC(npu_baseline_power_mw), kNonNegative, "mW",
                                    "fitted: the rest of the core domain during inference", true),
      number_key<AcceleratorConfig>("soc.npu.energy_scale", ERGON_SOC(npu_energy_scale), kPositive, "",
                                    "fitted: the energy table's process against the NPU's", true),
  };
  return section;
}

}  // namespace
}  // namespace ergon

ERGON_REGISTER(ergon::AcceleratorConfigSection, "soc", ergon::soc_keys(), ergon::config_order::kStudy)
ERGON_REGISTER(ergon::AcceleratorConfigSection, "soc.cpu", ergon::cpu_keys(), ergon::config_order::kStudy)
ERGON_REGISTER(ergon::AcceleratorConfigSection, "soc.static", ergon::static_keys(), ergon::config_order::kStudy)
ERGON_REGISTER(ergon::AcceleratorConfigSection, "soc.npu", ergon::npu_keys(), ergon::config_order::kStudy)
