#include "power/energy_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "common/action_catalogue.hpp"
#include "common/energy_bounds.hpp"
#include "common/yaml_view.hpp"
#include "power/accelergy_ert.hpp"

namespace ergon {

const ActionEnergy* WordWidthEnergies::find(std::string_view action) const {
  for (const ActionEnergy& entry : actions) {
    if (entry.action == action) return &entry;
  }
  return nullptr;
}

double WordWidthEnergies::pj(std::string_view action) const {
  const ActionEnergy* entry = find(action);
  return entry ? entry->pj : 0.0;
}

const WordWidthEnergies& EnergyTable::at_word_bits(int word_bits) const {
  std::string available;
  for (const auto& entry : word_widths) {
    if (entry.word_bits == word_bits) return entry;
    available += (available.empty() ? "" : ", ") + std::to_string(entry.word_bits);
  }
  throw InputError({file, 0, 0, {}}, "word_widths",
                   fmt::format("energy table '{}' has no {}-bit entry; it has: {}", name, word_bits, available));
}

double EnergyTable::glb_energy_scale(double glb_size_kib) const {
  if (glb_reference_size_kib <= 0 || glb_size_kib <= 0) return 1.0;
  return std::pow(glb_size_kib / glb_reference_size_kib, glb_size_exponent);
}

namespace {

// The GLB reference size is at least one byte, so the size scaling factor stays finite.
constexpr NumberRule kReferenceSizeKib{1.0 / 1024.0, 1e9, false};

void check_word_bits(YamlMap& map, int word_bits) {
  if (word_bits != 8 && word_bits != 16) map.at("bits").fail("word width must be 8 or 16 bits");
}

// The five-key form (`mac_pj`, `rf_pj`, `inter_pe_pj`, `glb_pj`, `dram_pj`) of tables written before
// actions were priced apart: each catalogue action says its key and how the key prices it (reads and
// writes cost the same, the GLB's energy covers the trip GLB -> PE so the bus transfers cost nothing of
// their own, gated MACs cost nothing, and `dram_pj` is per word).
std::vector<ActionEnergy> five_key_actions(YamlMap& map, int word_bits) {
  const double mac = map.get_number("mac_pj", NumberRule{0.0, kEnergyPerAccessPj.max, true});
  const double rf = map.get_number("rf_pj", kEnergyPerAccessPj);
  const double inter_pe = map.get_number("inter_pe_pj", kEnergyPerAccessPj);
  const double glb = map.get_number("glb_pj", kEnergyPerAccessPj);
  const double dram = map.get_number("dram_pj", kEnergyPerAccessPj);
  const auto key_pj = [&](std::string_view key) {
    return key == "mac_pj" ? mac : key == "rf_pj" ? rf : key == "inter_pe_pj" ? inter_pe : key == "glb_pj" ? glb : dram;
  };
  std::vector<ActionEnergy> actions;
  for (const ActionSpec& action : action_catalogue()) {
    if (!action.energy_action) continue;
    const YamlView view = map.at(std::string(action.five_key));
    const double pj = action.five_key_price == FiveKeyPrice::kFree ? 0.0 : key_pj(action.five_key);
    actions.push_back({std::string(action.name), pj, view.location(), view.path()});
    if (action.five_key_price == FiveKeyPrice::kPerWord) actions.back().bits_per_access = word_bits;
  }
  return actions;
}

// `actions:` of one width: `component.action: pJ` per count, or `{pj: E, bits_per_access: B}` for an
// energy per access of B bits (a DRAM burst, a wide SRAM row).
std::vector<ActionEnergy> listed_actions(const YamlView& view) {
  if (!view.node().IsMap()) view.fail("give a map of component.action: energy in pJ");
  std::vector<ActionEnergy> actions;
  for (const auto& item : view.node()) {
    const std::string action = item.first.as<std::string>();
    const YamlView value = view.child(item.second, action);
    ActionEnergy entry{action, 0, value.location(), value.path()};
    if (action.find('.') == std::string::npos) value.fail("an action is named component.action, e.g. glb.read");
    if (value.node().IsMap()) {
      YamlMap map(value);
      entry.pj = map.get_number("pj", kEnergyPerAccessPj);
      entry.bits_per_access = static_cast<int>(map.get_int("bits_per_access", kAccessBits));
      map.reject_unknown_keys();
    } else {
      entry.pj = value.as_number(kEnergyPerAccessPj);
    }
    actions.push_back(entry);
  }
  return actions;
}

WordWidthEnergies parse_word_width(const YamlView& view) {
  YamlMap map(view);
  WordWidthEnergies width;
  width.word_bits = static_cast<int>(map.get_int("bits", IntRule{8, 16}));
  check_word_bits(map, width.word_bits);
  if (map.has("actions")) {
    width.actions = listed_actions(map.at("actions"));
  } else {
    width.actions = five_key_actions(map, width.word_bits);
  }
  map.reject_unknown_keys();
  return width;
}

void parse_chip_terms(YamlMap& root, EnergyTable& table) {
  table.name = root.get_string("name");
  table.source = root.get_string("source");
  table.technology_nm = root.get_number("technology_nm", kPositive);
  table.nominal_voltage_v = root.get_number("nominal_voltage_v", 0.0, kPositive);
  if (table.nominal_voltage_v == 0) {
    table.notes.push_back(
        "the table gives no nominal_voltage_v: its energies are taken at the config's nominal voltage");
  }
  table.clock_tree_power_mw = root.get_number("clock_tree_power_mw", kPowerMw);
  table.clock_reference_frequency_mhz = root.get_number("clock_reference_frequency_mhz", kPositive);
  table.control_fraction = root.get_number("control_fraction", NumberRule{0.0, 0.95, false});
  table.leakage_power_mw = root.get_number("leakage_power_mw", 0.0, kPowerMw);
  if (root.has("glb_energy_scaling")) {
    YamlMap scaling = root.get_map("glb_energy_scaling");
    table.glb_reference_size_kib = scaling.get_number("reference_size_kib", kReferenceSizeKib);
    table.glb_size_exponent = scaling.get_number("exponent", NumberRule{0.0, 2.0, false});
    scaling.reject_unknown_keys();
  }
}

void parse_word_widths(YamlMap& root, EnergyTable& table) {
  const YamlView widths = root.at("word_widths");
  for (const auto& item : widths.items()) {
    WordWidthEnergies width = parse_word_width(item);
    for (const auto& existing : table.word_widths) {
      if (existing.word_bits == width.word_bits) {
        item.fail(fmt::format("a second entry for {}-bit words; keep one", width.word_bits));
      }
    }
    table.word_widths.push_back(std::move(width));
  }
  if (table.word_widths.empty()) widths.fail("the table needs at least one word width");
}

}  // namespace

EnergyTable load_energy_table(const std::string& path) {
  auto origin = std::make_shared<YamlOrigin>(YamlOrigin{path, {}});
  const YAML::Node document = load_yaml_file(path);
  if (document.IsMap() && document["ERT"]) return energy_table_from_ert(path, document);
  YamlMap root(YamlView(document, origin, ""));
  EnergyTable table;
  table.file = path;
  parse_chip_terms(root, table);
  if (root.has("accelergy_ert")) {
    if (root.has("word_widths")) root.at("word_widths").fail("give word_widths or accelergy_ert, not both");
    add_ert_energies(root.get_map("accelergy_ert"), table);
  } else {
    parse_word_widths(root, table);
  }
  if (root.has("area")) table.area = parse_area_section(root.get_map("area"), path);
  root.reject_unknown_keys();
  return table;
}

double per_count_pj(const ActionEnergy& energy, const CounterSpec& counter, int word_bits) {
  if (energy.bits_per_access == 0) return energy.pj;
  const double bits_per_count = counter.unit == "bytes" ? 8.0 : static_cast<double>(word_bits);
  return energy.pj * bits_per_count / static_cast<double>(energy.bits_per_access);
}

void check_table_prices(const EnergyTable& table, int word_bits, const std::vector<CounterSpec>& counted) {
  const WordWidthEnergies& energies = table.at_word_bits(word_bits);
  std::string counted_actions;
  for (const CounterSpec& spec : counted) {
    if (spec.energy_action) counted_actions += (counted_actions.empty() ? "" : ", ") + spec.name;
  }
  for (const ActionEnergy& entry : energies.actions) {
    const auto spec = std::find_if(counted.begin(), counted.end(), [&entry](const CounterSpec& counter) {
      return counter.name == entry.action && counter.energy_action;
    });
    if (spec == counted.end()) {
      throw InputError(
          entry.where, entry.key_path,
          fmt::format("no component counts '{}'; the energy actions are: {}", entry.action, counted_actions));
    }
    if (entry.bits_per_access != 0 && spec->unit != "words" && spec->unit != "bytes") {
      throw InputError(entry.where, entry.key_path,
                       fmt::format("'{}' counts {}, not data: give its energy per count, without bits_per_access",
                                   entry.action, spec->unit));
    }
  }
  std::string missing;
  for (const CounterSpec& spec : counted) {
    if (spec.energy_action && energies.find(spec.name) == nullptr) {
      missing += (missing.empty() ? "" : ", ") + spec.name;
    }
  }
  if (!missing.empty()) {
    throw InputError({table.file, 0, 0, {}}, fmt::format("word_widths[bits={}]", word_bits),
                     fmt::format("energy table '{}' does not price {}; give each an energy (0 if it costs nothing)",
                                 table.name, missing));
  }
}

}  // namespace ergon
