#pragma once
// Energy per action (component.action: `glb.read`, `rf.psum_write`, `dram.read`, ...) for each word width,
// at the table's nominal voltage, plus the chip-level terms (clock tree, control, leakage). The counters
// the components register say what one count of each action is (docs/energy.md); this table only prices
// them. A table is an Ergon YAML table or an Accelergy ERT mapped onto Ergon's actions (power/accelergy_ert).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/counter_registry.hpp"
#include "common/input_error.hpp"
#include "power/area_table.hpp"

namespace ergon {

// The energy of one count of an action, with where the table gave it (for error messages).
struct ActionEnergy {
  std::string action;  // component.action
  double pj = 0;
  SourceLocation where;
  std::string key_path;
  int bits_per_access = 0;  // 0: `pj` is per count; else per access of this many bits (data actions only)
};

struct WordWidthEnergies {
  int word_bits = 16;
  std::vector<ActionEnergy> actions;

  // The energy of one count of `action`; 0 when the table does not price it (check_table_prices refuses
  // a table that leaves a registered energy action unpriced before anything is simulated).
  double pj(std::string_view action) const;
  const ActionEnergy* find(std::string_view action) const;
};

struct EnergyTable {
  std::string name;
  std::string source;
  std::string file;
  double technology_nm = 0;
  double nominal_voltage_v = 1.0;  // 0: not given (a bare ERT, a source without one): the config's nominal
  double clock_tree_power_mw = 0;  // at nominal voltage and the reference frequency
  double clock_reference_frequency_mhz = 0;
  double control_fraction = 0;  // share of total on-chip energy spent in control
  double leakage_power_mw = 0;  // at nominal voltage; scales with V
  // GLB access energy against capacity: glb.* x (size / reference)^exponent; reference 0 = no scaling.
  double glb_reference_size_kib = 0;
  double glb_size_exponent = 0;
  std::vector<WordWidthEnergies> word_widths;
  // What a reader should know about how the table was built (an ERT's assumed access widths, actions
  // it priced at 0); reports print them.
  std::vector<std::string> notes;
  // The technology's area figures (`area:`, or the ART beside a bare ERT; docs/area.md); absent when it has
  // none, `area_notes` saying why when it could have had them.
  std::optional<AreaTable> area;
  std::vector<std::string> area_notes;

  double glb_energy_scale(double glb_size_kib) const;

  // The energies for `word_bits`; throws InputError naming the widths the table has.
  const WordWidthEnergies& at_word_bits(int word_bits) const;
};

// Loads an Ergon table (`word_widths` with `actions`, or the five-key form `mac_pj` ... `dram_pj`) or an
// Accelergy ERT (a file whose top-level key is `ERT`), or an Ergon table whose energies come from an ERT
// (`accelergy_ert:`). Errors name the file, line and key.
EnergyTable load_energy_table(const std::string& path);

// The energy of one count of `counter` (words, bytes, MACs, ...) at `word_bits`-bit words.
double per_count_pj(const ActionEnergy& energy, const CounterSpec& counter, int word_bits);

// Refuses, before a run, a table that prices an action no component counts (a typo) or leaves an energy
// action a component counts unpriced. `counted` is the run's registry.
void check_table_prices(const EnergyTable& table, int word_bits, const std::vector<CounterSpec>& counted);

}  // namespace ergon
