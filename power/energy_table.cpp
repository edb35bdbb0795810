#include "power/energy_table.hpp"

#include <fmt/format.h>

#include <cmath>
#include <memory>

#include "common/yaml_view.hpp"

namespace ergon {

const AccessEnergies& EnergyTable::at_word_bits(int word_bits) const {
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

// Bounds that keep every product of an energy and a count finite (counts stay below 2^63): a value
// beyond them is a typo, not a technology. 1 mJ per access is about 10^5 times a DRAM word's energy;
// 1 kW of clock tree or leakage is a data-centre rack.
constexpr NumberRule kEnergyPerAccessPj{0.0, 1e9, false};
constexpr NumberRule kPowerMw{0.0, 1e6, false};
// The GLB reference size is at least one byte, so the size scaling factor stays finite.
constexpr NumberRule kReferenceSizeKib{1.0 / 1024.0, 1e9, false};

AccessEnergies parse_access_energies(const YamlView& view) {
  YamlMap map(view);
  AccessEnergies energies;
  energies.word_bits = static_cast<int>(map.get_int("bits", IntRule{8, 16}));
  if (energies.word_bits != 8 && energies.word_bits != 16) map.at("bits").fail("word width must be 8 or 16 bits");
  energies.mac_pj = map.get_number("mac_pj", NumberRule{0.0, kEnergyPerAccessPj.max, true});
  energies.rf_pj = map.get_number("rf_pj", kEnergyPerAccessPj);
  energies.inter_pe_pj = map.get_number("inter_pe_pj", kEnergyPerAccessPj);
  energies.glb_pj = map.get_number("glb_pj", kEnergyPerAccessPj);
  energies.dram_pj = map.get_number("dram_pj", kEnergyPerAccessPj);
  map.reject_unknown_keys();
  return energies;
}

}  // namespace

EnergyTable load_energy_table(const std::string& path) {
  auto origin = std::make_shared<YamlOrigin>(YamlOrigin{path, {}});
  YamlMap root(YamlView(load_yaml_file(path), origin, ""));
  EnergyTable table;
  table.file = path;
  table.name = root.get_string("name");
  table.source = root.get_string("source");
  table.technology_nm = root.get_number("technology_nm", kPositive);
  table.nominal_voltage_v = root.get_number("nominal_voltage_v", kPositive);
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
  const YamlView widths = root.at("word_widths");
  for (const auto& item : widths.items()) {
    AccessEnergies energies = parse_access_energies(item);
    for (const auto& existing : table.word_widths) {
      if (existing.word_bits == energies.word_bits) {
        item.fail(fmt::format("a second entry for {}-bit words; keep one", energies.word_bits));
      }
    }
    table.word_widths.push_back(energies);
  }
  if (table.word_widths.empty()) widths.fail("the table needs at least one word width");
  root.reject_unknown_keys();
  return table;
}

}  // namespace ergon
