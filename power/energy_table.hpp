#pragma once
// Energy per access at each storage level and per MAC, for each word width, at the table's nominal
// voltage. Counters of activity are kept elsewhere; this table only prices them.
#include <cstdint>
#include <string>
#include <vector>

namespace ergon {

struct AccessEnergies {
  int word_bits = 16;
  double mac_pj = 0;       // one multiply-accumulate
  double rf_pj = 0;        // one register-file access (RF -> ALU)
  double inter_pe_pj = 0;  // one word moved between neighbouring PEs
  double glb_pj = 0;       // one global-buffer access (GLB -> PE)
  double dram_pj = 0;      // one word moved DRAM -> GLB
};

struct EnergyTable {
  std::string name;
  std::string source;
  std::string file;
  double technology_nm = 0;
  double nominal_voltage_v = 1.0;
  double clock_tree_power_mw = 0;  // at nominal voltage and the reference frequency
  double clock_reference_frequency_mhz = 0;
  double control_fraction = 0;  // share of total on-chip energy spent in control
  double leakage_power_mw = 0;  // at nominal voltage; scales with V
  // GLB access energy against capacity: glb_pj x (size / reference)^exponent; reference 0 = no scaling.
  double glb_reference_size_kib = 0;
  double glb_size_exponent = 0;
  std::vector<AccessEnergies> word_widths;

  double glb_energy_scale(double glb_size_kib) const;

  // The energies for `word_bits`; throws InputError naming the widths the table has.
  const AccessEnergies& at_word_bits(int word_bits) const;
};

EnergyTable load_energy_table(const std::string& path);

}  // namespace ergon
