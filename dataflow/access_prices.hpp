#pragma once
// What a mapper ranks candidate mappings by: the energy of each kind of access at the nominal operating
// point (from the energy table), and its objective (`mapper.objective`).
#include <string>

#include "dataflow/pass_traffic.hpp"

namespace ergon {

// Energy of one count of each energy action (docs/energy.md) or one cycle, control overhead included, in pJ.
struct AccessPrices {
  double mac_pj = 1;  // a computed MAC
  double gated_mac_pj = 0;
  RfAccessPrices rf;
  double filter_transfer_pj = 0;  // one word over the NoC's buses
  double ifmap_transfer_pj = 0;
  double psum_transfer_pj = 0;
  double pe_hop_pj = 2;  // one psum word between neighbouring PEs
  double glb_read_pj = 6;
  double glb_write_pj = 6;
  double dram_read_pj_per_byte = 100;
  double dram_write_pj_per_byte = 100;
  double cycle_pj = 0;  // clock tree and leakage per cycle
};

// The energy of the operations and on-chip traffic of a mapping or step (DRAM and cycles apart).
inline double on_chip_pj(const AccessPrices& p, std::uint64_t macs, std::uint64_t nonzero_macs, const RfAccesses& rf,
                         std::uint64_t filter_bus, std::uint64_t ifmap_bus, std::uint64_t psum_bus,
                         std::uint64_t pe_hops, std::uint64_t glb_reads, std::uint64_t glb_writes) {
  const auto x = [](std::uint64_t count, double pj) { return static_cast<double>(count) * pj; };
  return x(nonzero_macs, p.mac_pj) + x(macs - nonzero_macs, p.gated_mac_pj) + p.rf.pj(rf) +
         x(filter_bus, p.filter_transfer_pj) + x(ifmap_bus, p.ifmap_transfer_pj) + x(psum_bus, p.psum_transfer_pj) +
         x(pe_hops, p.pe_hop_pj) + x(glb_reads, p.glb_read_pj) + x(glb_writes, p.glb_write_pj);
}

enum class MapperObjective { kEnergy, kLatency, kEnergyDelay };

// The spelling of `mapper.objective`.
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

// Whether a candidate of (energy_pj, cycles) beats the best so far under `objective`, lexicographically as
// Timeloop's [delay, energy]: the objective's value first; on a tie the other figure decides (latency:
// less energy; energy and edp: fewer cycles). A tie is exact equality of the estimates: the cost models
// compute equal work in the same order, so mappings that differ only where the objective does not look
// (DRAM traffic hidden under compute, say) estimate bit-identical figures. Equal on both: the earlier stays.
inline bool ranks_before(MapperObjective objective, double energy_pj, double cycles, double best_energy_pj,
                         double best_cycles) {
  const double value = objective_value(objective, energy_pj, cycles);
  const double best_value = objective_value(objective, best_energy_pj, best_cycles);
  if (value != best_value) return value < best_value;
  if (objective == MapperObjective::kLatency) return energy_pj < best_energy_pj;
  return cycles < best_cycles;
}

}  // namespace ergon
