#pragma once
// What a mapper ranks candidate mappings by: the energy of each kind of access at the nominal operating
// point (from the energy table), and its objective.

namespace ergon {

// Energy of one access (or cycle) of each kind, control overhead included, in pJ.
struct AccessPrices {
  double mac_pj = 1;
  double rf_pj = 1;
  double inter_pe_pj = 2;
  double glb_pj = 6;
  double dram_pj_per_byte = 100;
  double cycle_pj = 0;  // clock tree and leakage per cycle
};

enum class MapperObjective { kEnergy, kLatency, kEnergyDelay };

}  // namespace ergon
