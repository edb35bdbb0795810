#pragma once
// Prices activity counters with an energy table: energy = activity x table. Dynamic on-chip energy
// scales with (V/Vnom)^2, clock-tree power with V^2 f, leakage with V and time; control is a fraction
// of the on-chip total, as in CNNergy.
#include <cstdint>

#include "power/energy_table.hpp"

namespace ergon {

struct ActivityCounts {
  std::uint64_t nonzero_macs = 0;
  std::uint64_t rf_accesses = 0;
  std::uint64_t inter_pe_words = 0;
  std::uint64_t glb_accesses = 0;
  std::uint64_t dram_bytes = 0;
  std::uint64_t cycles = 0;    // clock cycles ticked at the operating point
  double stopped_seconds = 0;  // clock stopped (DVFS switch): leakage only
};

struct OperatingPoint {
  int word_bits = 16;
  double frequency_mhz = 200;
  double voltage_v = 1.0;
  double dram_energy_pj_per_bit = 0;  // 0: price DRAM words with the table's dram_pj
  double dram_voltage_ratio = 1.0;
  double glb_energy_scale = 1.0;  // the GLB's capacity against the table's reference (EnergyTable)    // memory-domain
                                  // voltage / its nominal: DRAM energy scales with its square
};

struct EnergyBreakdown {
  double mac_pj = 0;
  double rf_pj = 0;
  double noc_pj = 0;
  double glb_pj = 0;
  double dram_pj = 0;
  double clock_pj = 0;
  double control_pj = 0;
  double leakage_pj = 0;
  double total_pj() const { return mac_pj + rf_pj + noc_pj + glb_pj + dram_pj + clock_pj + control_pj + leakage_pj; }
  EnergyBreakdown& operator+=(const EnergyBreakdown& other);
};

EnergyBreakdown price_activity(const ActivityCounts& activity, const EnergyTable& table, const OperatingPoint& point);

}  // namespace ergon
