#include "sim/dvfs/dvfs_run.hpp"

#include <fmt/format.h>

#include "power/dvfs/latency_feedback.hpp"
#include "sim/run_report.hpp"

namespace ergon {
namespace {

double cycles_to_ns(std::uint64_t cycles, double frequency_mhz) {
  return static_cast<double>(cycles) * 1e3 / frequency_mhz;
}

double compute_domain_pj(const EnergyBreakdown& e) {
  return e.total_pj() - e.component_pj(kMemoryComponent);
}

// The DRAM's statistics beside its energy (a bank-level DRAM's row-buffer outcomes and refresh time).
void add_dram_statistics(nlohmann::ordered_json& json, const LayerResult& layer,
                         const std::vector<CounterSpec>& counters) {
  for (const CounterSpec& counter : counters) {
    if (counter.component() == kMemoryComponent && !counter.energy_action && counter.tensor.empty() &&
        layer.counters.has(counter.name)) {
      json[counter.column] = layer.count(counter.name);
    }
  }
}

double saving_pct(double before, double after) {
  return before > 0 ? 100 * (1 - after / before) : 0;
}

}  // namespace

std::vector<LayerTiming> layer_timings(const SimulationResult& result) {
  std::vector<LayerTiming> timings;
  for (const LayerResult& l : result.layers) {
    const double f = l.levels.frequency_mhz;
    timings.push_back({l.name, l.executed, l.time_ns, cycles_to_ns(l.stall_cycles, f),
                       cycles_to_ns(l.fill_stall_cycles, f), cycles_to_ns(l.drain_stall_cycles, f),
                       static_cast<double>(l.dram_bytes()), cycles_to_ns(l.dram_busy_cycles, f),
                       compute_domain_pj(l.energy), result.bound_kind(l)});
  }
  return timings;
}

SimulationResult simulate_race_to_idle(const Chip& chip, const Workload& workload, Fidelity fidelity) {
  return run_pipeline(chip, workload, options_at(fidelity));
}

Fidelity simulated_fidelity(const SimulationResult& result) {
  return result.cycle_accurate ? Fidelity::kCycleAccurate : Fidelity::kTransactionLevel;
}

std::string unreachable_deadline(double deadline_ns, double race_to_idle_ns) {
  if (deadline_ns <= 0 || deadline_ns >= race_to_idle_ns) return "";
  return fmt::format("--deadline-ms {:.6g} is shorter than race to idle's latency ({:.6g} ms): no schedule can meet it",
                     deadline_ns / 1e6, race_to_idle_ns / 1e6);
}

SimulationOptions scheduled_options(const DvfsAllocation& allocation, Fidelity fidelity) {
  SimulationOptions options = options_at(fidelity);
  for (const LayerAllocation& layer : allocation.layers) options.layer_levels.push_back(layer.levels);
  options.switch_overheads = allocation.scheme != DvfsScheme::kIdeal;
  return options;
}

DvfsOutcome run_dvfs(const Chip& chip, const Workload& workload, DvfsScheme scheme,
                     const SimulationResult& race_to_idle, double deadline_ns, int feedback_rounds) {
  const AcceleratorConfig& config = chip.config();
  constexpr double kTolerance = 0.005;
  const double rti_ns = race_to_idle.total.time_ns;
  if (const std::string why = unreachable_deadline(deadline_ns, rti_ns); !why.empty()) {
    throw std::invalid_argument(why);
  }
  // A deadline stretches every layer alike, leaving the tolerance's share of the slack unspent.
  const double time_scale = deadline_ns > 0 ? std::max(1.0, deadline_ns / ((1 + kTolerance) * rti_ns)) : 1.0;
  DvfsOutcome outcome;
  outcome.race_to_idle = race_to_idle;
  outcome.deadline_ns = deadline_ns;
  const std::vector<LayerTiming> baseline = layer_timings(race_to_idle);
  outcome.allocation = allocate_arada(baseline, config, scheme, time_scale);
  std::vector<LayerTiming> scheduled;  // outcome.scheduled's timings
  const auto simulate = [&] {
    outcome.scheduled =
        run_pipeline(chip, workload, scheduled_options(outcome.allocation, simulated_fidelity(race_to_idle)));
    scheduled = layer_timings(outcome.scheduled);
  };
  simulate();
  outcome.open_loop_energy_saving_pct =
      saving_pct(race_to_idle.total.energy.total_pj(), outcome.scheduled.total.energy.total_pj());
  outcome.open_loop_latency_change_pct = -saving_pct(race_to_idle.total.time_ns, outcome.scheduled.total.time_ns);
  // Feedback (power/dvfs/latency_feedback.hpp): raise late layers, then, if rounds run out, restore them.
  LatencyFeedback feedback(outcome.allocation, baseline, config, kTolerance, time_scale, deadline_ns);
  while (!feedback.on_time(scheduled) && outcome.feedback_rounds < feedback_rounds &&
         feedback.raise_late_layers(outcome.allocation, scheduled)) {
    simulate();
    ++outcome.feedback_rounds;
  }
  for (std::size_t count = 1;
       !feedback.on_time(scheduled) && feedback.restore_latest(outcome.allocation, scheduled, count); count *= 2) {
    simulate();
    ++outcome.restore_rounds;
  }
  outcome.latency_kept = feedback.on_time(scheduled);
  summarise_allocation(outcome.allocation, baseline, config);
  const EnergyBreakdown& before = race_to_idle.total.energy;
  const EnergyBreakdown& after = outcome.scheduled.total.energy;
  outcome.energy_saving_pct = saving_pct(before.total_pj(), after.total_pj());
  outcome.compute_energy_saving_pct = saving_pct(compute_domain_pj(before), compute_domain_pj(after));
  outcome.dram_energy_saving_pct =
      saving_pct(before.component_pj(kMemoryComponent), after.component_pj(kMemoryComponent));
  outcome.latency_change_pct = -saving_pct(race_to_idle.total.time_ns, outcome.scheduled.total.time_ns);
  return outcome;
}

std::string dvfs_table(const DvfsOutcome& outcome) {
  std::string out = fmt::format("ARADA {} on {}: per-layer allocation, then re-simulated\n",
                                dvfs_scheme_name(outcome.allocation.scheme), outcome.race_to_idle.config_name);
  const auto row = [](const auto&... cells) {
    return fmt::format("{:<26} {:>14} {:>10} {:>7} {:>8} {:>6} {:>9} {:>10} {:>10} {:>9}\n", cells...);
  };
  out += row("layer", "bound", "T_rti us", "stall", "F MHz", "V", "BW GB/s", "T_dvfs us", "E_rti uJ", "E_dvfs uJ");
  for (std::size_t i = 0; i < outcome.allocation.layers.size(); ++i) {
    const LayerAllocation& a = outcome.allocation.layers[i];
    const LayerResult& before = outcome.race_to_idle.layers[i];
    const LayerResult& after = outcome.scheduled.layers[i];
    if (!before.executed) continue;
    const double stall_share = before.time_ns > 0 ? 100 * a.hideable_stall_ns / before.time_ns : 0;
    out += row(a.name, outcome.race_to_idle.bound_name(before), fmt::format("{:.2f}", before.time_ns / 1e3),
               fmt::format("{:.1f}%", stall_share), fmt::format("{:.1f}", a.levels.frequency_mhz),
               fmt::format("{:.3f}", a.levels.voltage_v), fmt::format("{:.2f}", a.levels.dram_bandwidth_gbps),
               fmt::format("{:.2f}", after.time_ns / 1e3), fmt::format("{:.3f}", before.energy.total_pj() / 1e6),
               fmt::format("{:.3f}", after.energy.total_pj() / 1e6));
  }
  out += fmt::format(
      "latency {:.3f} -> {:.3f} ms ({:+.2f}%); energy {:.4f} -> {:.4f} mJ: saving {:.1f}% simulated "
      "(compute domain {:.1f}%, DRAM {:.1f}%), {:.1f}% by ARADA eq. 5/6; DRAM bandwidth reduced {:.1f}%\n"
      "before feedback ({} rounds raised late layers, {} restored {} to the nominal levels): saving {:.1f}%, "
      "latency {:+.2f}%\n{}",
      outcome.race_to_idle.total.time_ns / 1e6, outcome.scheduled.total.time_ns / 1e6, outcome.latency_change_pct,
      outcome.race_to_idle.total.energy.total_pj() / 1e9, outcome.scheduled.total.energy.total_pj() / 1e9,
      outcome.energy_saving_pct, outcome.compute_energy_saving_pct, outcome.dram_energy_saving_pct,
      outcome.allocation.estimated_saving_pct, outcome.allocation.bandwidth_reduction_pct, outcome.feedback_rounds,
      outcome.restore_rounds, outcome.allocation.restored_layers, outcome.open_loop_energy_saving_pct,
      outcome.open_loop_latency_change_pct,
      outcome.latency_kept ? ""
      : outcome.deadline_ns > 0
          ? fmt::format("deadline of {:.6g} ms NOT met: see each layer's decision\n", outcome.deadline_ns / 1e6)
          : "latency NOT kept within 0.5% of race to idle: see each layer's decision\n");
  return out;
}

nlohmann::ordered_json dvfs_json(const DvfsOutcome& outcome, const AcceleratorConfig& config,
                                 const Workload& workload) {
  nlohmann::ordered_json layers = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < outcome.allocation.layers.size(); ++i) {
    const LayerAllocation& a = outcome.allocation.layers[i];
    const LayerResult& before = outcome.race_to_idle.layers[i];
    const LayerResult& after = outcome.scheduled.layers[i];
    layers.push_back({{"name", a.name},
                      {"executed", before.executed},
                      {"bound", bound_domain_name(a.bound)},
                      {"bound_resource", outcome.race_to_idle.bound_name(before)},
                      {"freq_mhz", a.levels.frequency_mhz},
                      {"voltage_v", a.levels.voltage_v},
                      {"dram_bandwidth_gbps", a.levels.dram_bandwidth_gbps},
                      {"memory_voltage_v", a.levels.memory_voltage_v},
                      {"stall_share", before.time_ns > 0 ? a.hideable_stall_ns / before.time_ns : 0.0},
                      {"rti_time_ns", before.time_ns},
                      {"rti_stall_ns", a.hideable_stall_ns},
                      {"rti_fill_stall_ns", cycles_to_ns(before.fill_stall_cycles, before.levels.frequency_mhz)},
                      {"time_ns", after.time_ns},
                      {"dvfs_switch_ns", after.dvfs_switch_ns},
                      {"rti_energy_pj", before.energy.total_pj()},
                      {"energy_pj", after.energy.total_pj()},
                      {"arada_normalised_energy", a.normalised_energy},
                      {"decision", a.decision}});
    add_dram_statistics(layers.back(), after, outcome.scheduled.counters);
    add_dram_bank_fields(layers.back(), after);
  }
  nlohmann::ordered_json report = {{"schema_version", 2},
                                   {"scheme", dvfs_scheme_name(outcome.allocation.scheme)},
                                   {"fidelity", fidelity_name(simulated_fidelity(outcome.race_to_idle))},
                                   {"config",
                                    {{"name", config.name},
                                     {"file", config.file},
                                     {"dram_preset", config.dram.preset},
                                     {"dram_impl", config.dram.impl}}},
                                   {"workload", {{"name", workload.name()}, {"file", workload.file()}}},
                                   {"total",
                                    {{"energy_saving_pct", outcome.energy_saving_pct},
                                     {"compute_energy_saving_pct", outcome.compute_energy_saving_pct},
                                     {"dram_energy_saving_pct", outcome.dram_energy_saving_pct},
                                     {"arada_estimated_saving_pct", outcome.allocation.estimated_saving_pct},
                                     {"latency_change_pct", outcome.latency_change_pct},
                                     {"open_loop_energy_saving_pct", outcome.open_loop_energy_saving_pct},
                                     {"open_loop_latency_change_pct", outcome.open_loop_latency_change_pct},
                                     {"feedback_rounds", outcome.feedback_rounds},
                                     {"restore_rounds", outcome.restore_rounds},
                                     {"restored_layers", outcome.allocation.restored_layers},
                                     {"latency_kept", outcome.latency_kept},
                                     {"deadline_ns", outcome.deadline_ns},
                                     {"bandwidth_reduction_pct", outcome.allocation.bandwidth_reduction_pct},
                                     {"rti_latency_ns", outcome.race_to_idle.total.time_ns},
                                     {"latency_ns", outcome.scheduled.total.time_ns},
                                     {"rti_energy_pj", outcome.race_to_idle.total.energy.total_pj()},
                                     {"energy_pj", outcome.scheduled.total.energy.total_pj()}}},
                                   {"layers", layers}};
  add_dram_statistics(report["total"], outcome.scheduled.total, outcome.scheduled.counters);
  add_dram_bank_fields(report["total"], outcome.scheduled.total);
  return report;
}

}  // namespace ergon
