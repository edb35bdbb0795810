#pragma once
// What a mapper ranks candidate mappings by: the energy of each kind of access at the nominal operating
// point (from the energy table), and its objective (`mapper.objective`).
#include <string>

#include "arch/accelerator_config.hpp"
#include "dataflows/step_traffic.hpp"

namespace ergon {

// Energy of one count of each catalogue action (docs/energy.md; `action_prices` in power/ fills it from the
// energy table) and of one cycle, control overhead included, in pJ. The defaults (a MAC 1, an RF access 1,
// a PE hop 2, a GLB access 6, a DRAM byte 100) serve tests that rank mappings without a table.
struct AccessPrices {
  ActionPrices action = default_action_prices();
  double cycle_pj = 0;  // clock tree and leakage per cycle

  double operator[](Action a) const { return action[a]; }
  static ActionPrices default_action_prices() {
    ActionPrices p;
    p[Action::kMacCompute] = 1;
    for (Action rf : {Action::kRfIfmapRead, Action::kRfIfmapWrite, Action::kRfFilterRead, Action::kRfFilterWrite,
                      Action::kRfPsumRead, Action::kRfPsumWrite}) {
      p[rf] = 1;
    }
    p[Action::kNocPeHop] = 2;
    p[Action::kGlbRead] = p[Action::kGlbWrite] = 6;
    p[Action::kDramRead] = p[Action::kDramWrite] = 100;
    return p;
  }
};

// The energy of the operations and on-chip traffic of a mapping or step (DRAM and cycles apart): the counts
// of the PE array's, the NoC's and the GLB's actions at their prices (the register files' six as one subtotal).
inline double on_chip_pj(const AccessPrices& p, const ActionCounts& counts) {
  const auto x = [&](Action action) { return static_cast<double>(counts[action]) * p[action]; };
  using A = Action;
  const double rf_pj = x(A::kRfIfmapRead) + x(A::kRfIfmapWrite) + x(A::kRfFilterRead) + x(A::kRfFilterWrite) +
                       x(A::kRfPsumRead) + x(A::kRfPsumWrite);
  return x(A::kMacCompute) + x(A::kMacGated) + rf_pj + x(A::kNocFilterTransfer) + x(A::kNocIfmapTransfer) +
         x(A::kNocPsumTransfer) + x(A::kNocPeHop) + x(A::kGlbRead) + x(A::kGlbWrite);
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
