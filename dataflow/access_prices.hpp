#pragma once
// What a mapper ranks candidate mappings by: the energy of each kind of access at the nominal operating
// point (from the energy table), and its objective (`mapper.objective`).
#include <string>

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

// `mapper.objective` as the config loader accepted it: energy, latency or edp.
inline MapperObjective mapper_objective_of(const std::string& name) {
  return name == "latency" ? MapperObjective::kLatency
         : name == "edp"   ? MapperObjective::kEnergyDelay
                           : MapperObjective::kEnergy;
}

inline const char* mapper_objective_name(MapperObjective objective) {
  switch (objective) {
    case MapperObjective::kLatency: return "latency";
    case MapperObjective::kEnergyDelay: return "edp";
    case MapperObjective::kEnergy: break;
  }
  return "energy";
}

// The value a mapper minimises for a candidate of this energy and these cycles.
inline double objective_value(MapperObjective objective, double energy_pj, double cycles) {
  switch (objective) {
    case MapperObjective::kLatency: return cycles;
    case MapperObjective::kEnergyDelay: return energy_pj * cycles;
    case MapperObjective::kEnergy: break;
  }
  return energy_pj;
}

}  // namespace ergon
