#pragma once
// ARADA end to end: simulate at race to idle, allocate levels per layer (power/dvfs/arada_policy), and
// re-simulate the schedule, so the saving and the latency change are simulated, not only estimated.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "power/dvfs/arada_policy.hpp"
#include "sim/run_pipeline.hpp"

namespace ergon {

struct DvfsOutcome {
  DvfsAllocation allocation;
  SimulationResult race_to_idle;
  SimulationResult scheduled;
  double energy_saving_pct = 0;          // whole accelerator incl. DRAM
  double compute_energy_saving_pct = 0;  // compute domain: MAC, RF, NoC, GLB, clock, control, leakage
  double dram_energy_saving_pct = 0;
  double latency_change_pct = 0;  // + is slower
  // The first re-simulation, before feedback raised the levels of layers that ran late.
  double open_loop_energy_saving_pct = 0;
  double open_loop_latency_change_pct = 0;
  int feedback_rounds = 0;   // re-simulations that raised late layers
  int restore_rounds = 0;    // re-simulations after late layers were returned to the nominal levels
  bool latency_kept = true;  // within 0.5 % of race to idle, or by the deadline (power/dvfs/latency_feedback.hpp)
  double deadline_ns = 0;    // 0: iso-latency
};

inline constexpr int kDvfsFeedbackRounds = 8;

// The race-to-idle timings ARADA's analysis starts from.
std::vector<LayerTiming> layer_timings(const SimulationResult& result);

// Empty when race to idle (`race_to_idle_ns`) meets the deadline; otherwise why no schedule can.
std::string unreachable_deadline(double deadline_ns, double race_to_idle_ns);

// `race_to_idle` is passed in when already simulated (a study runs every scheme from one baseline); every
// schedule is re-simulated at its fidelity, so that the savings compare like with like. `deadline_ns` > 0
// spends the slack up to that latency (`ergon dvfs --deadline-ms`); it must not be shorter than race to
// idle's latency (std::invalid_argument).
DvfsOutcome run_dvfs(const Chip& chip, const Workload& workload, DvfsScheme scheme,
                     const SimulationResult& race_to_idle, double deadline_ns = 0,
                     int feedback_rounds = kDvfsFeedbackRounds);
SimulationResult simulate_race_to_idle(const Chip& chip, const Workload& workload,
                                       Fidelity fidelity = Fidelity::kTransactionLevel);
// The fidelity `result` was simulated at.
Fidelity simulated_fidelity(const SimulationResult& result);

// The options that simulate the outcome's final schedule (to replay it with observers), at `fidelity`.
SimulationOptions scheduled_options(const DvfsAllocation& allocation, Fidelity fidelity);

std::string dvfs_table(const DvfsOutcome& outcome);  // per layer, like ARADA's Table 1
nlohmann::ordered_json dvfs_json(const DvfsOutcome& outcome, const AcceleratorConfig& config, const Workload& workload);

}  // namespace ergon
