#include "power/dvfs/arada_policy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "arch/dvfs_levels.hpp"

namespace ergon {
namespace {

struct SchemeRules {
  bool allocate = false;
  double compute_switch_ns = 0;  // what a switch costs the policy; 0 when switching is free
  double memory_switch_ns = 0;
  bool quantised = false;
};

SchemeRules rules_of(DvfsScheme scheme, const DvfsConfig& dvfs) {
  switch (scheme) {
    case DvfsScheme::kRaceToIdle: return {};
    case DvfsScheme::kIdeal: return {true, 0, 0, false};
    case DvfsScheme::kWithOverhead:
      return {true, dvfs.compute_switch_overhead_us * 1e3, dvfs.memory_switch_overhead_us * 1e3, false};
    case DvfsScheme::kWithOverheadQuantised:
      return {true, dvfs.compute_switch_overhead_us * 1e3, dvfs.memory_switch_overhead_us * 1e3, true};
  }
  return {};
}

// The next executed layer's fill: a compute switch there overlaps its first DRAM fetch.
double next_fill_ns(const std::vector<LayerTiming>& layers, std::size_t index) {
  for (std::size_t j = index + 1; j < layers.size(); ++j) {
    if (layers[j].executed) return layers[j].fill_stall_ns;
  }
  return -1;  // no next layer: nothing to switch back for
}

// eq. 1 with T_total - T_stall = T_execution: the array slowed to F until its work fills the time it
// waited, less what switching into (and back out of) the level costs.
void lower_compute(const LayerTiming& t, LayerAllocation& a, const SchemeRules& rules, const DvfsConfig& dvfs,
                   const OperatingLevels& nominal, double next_fill) {
  const double switch_in = std::max(0.0, rules.compute_switch_ns - t.fill_stall_ns);
  const double switch_out = next_fill < 0 ? 0.0 : std::max(0.0, rules.compute_switch_ns - next_fill);
  const double budget_ns = a.compute_ns + a.hideable_stall_ns - switch_in - switch_out;
  if (budget_ns <= a.compute_ns) {
    a.decision = fmt::format("stall {:.0f} ns does not pay for switching ({:.0f} ns exposed)", a.hideable_stall_ns,
                             switch_in + switch_out);
    return;
  }
  double frequency =
      std::max(nominal.frequency_mhz * a.compute_ns / budget_ns, dvfs.compute_levels.front().frequency_mhz);
  double voltage = compute_voltage_at(dvfs, frequency);
  if (rules.quantised) {
    const ComputeLevel level = compute_level_at_or_above(dvfs, frequency);
    frequency = level.frequency_mhz;
    voltage = level.voltage_v;
  }
  if (frequency >= nominal.frequency_mhz) {
    a.decision = "no legal level below the nominal one fits";
    return;
  }
  a.levels.frequency_mhz = frequency;
  a.levels.voltage_v = voltage;
  a.decision = "memory-bound: compute clock lowered (eq. 1)";
}

// The DRAM slowed to the layer's demand: its bytes spread over the time between the first tiles and the
// final write-back, less the memory switches.
void lower_bandwidth(const LayerTiming& t, LayerAllocation& a, const SchemeRules& rules, const DvfsConfig& dvfs,
                     const OperatingLevels& nominal) {
  const double window_ns = t.time_ns - t.fill_stall_ns - t.drain_stall_ns - 2 * rules.memory_switch_ns;
  if (window_ns <= t.dram_busy_ns) {
    a.decision = "compute-bound, but the DRAM has no slack that pays for switching";
    return;
  }
  double bandwidth = std::max(t.dram_bytes / window_ns, dvfs.memory_levels.front().bandwidth_gbps);
  double voltage = memory_voltage_at(dvfs, bandwidth);
  if (rules.quantised) {
    const MemoryLevel level = memory_level_at_or_above(dvfs, bandwidth);
    bandwidth = level.bandwidth_gbps;
    voltage = level.voltage_v;
  }
  if (bandwidth >= nominal.dram_bandwidth_gbps) {
    a.decision = "compute-bound; no legal bandwidth below the maximum fits";
    return;
  }
  a.levels.dram_bandwidth_gbps = bandwidth;
  a.levels.memory_voltage_v = voltage;
  a.decision = "compute-bound: DRAM bandwidth lowered to demand (eq. 2)";
}

// eq. 6 over the network (layers weighted by T_execution) and the mean bandwidth reduction.
void summarise(DvfsAllocation& allocation, const std::vector<LayerTiming>& race_to_idle,
               const OperatingLevels& nominal) {
  double weighted_energy = 0, weight = 0, bandwidth_time = 0, time = 0;
  for (std::size_t i = 0; i < race_to_idle.size(); ++i) {
    LayerAllocation& a = allocation.layers[i];
    if (!race_to_idle[i].executed) continue;
    // eq. 6: (V_RA/V)^2 x F_RA/F x (1 + T_stall/T_execution), for the compute domain only.
    const double v = a.levels.voltage_v / nominal.voltage_v, f = a.levels.frequency_mhz / nominal.frequency_mhz;
    const bool lowered = a.levels.frequency_mhz < nominal.frequency_mhz;
    a.normalised_energy = lowered && a.compute_ns > 0 ? v * v * f * (1 + a.hideable_stall_ns / a.compute_ns) : 1.0;
    weighted_energy += a.compute_ns * a.normalised_energy;
    weight += a.compute_ns;
    bandwidth_time += race_to_idle[i].time_ns * a.levels.dram_bandwidth_gbps / nominal.dram_bandwidth_gbps;
    time += race_to_idle[i].time_ns;
  }
  allocation.estimated_saving_pct = weight > 0 ? 100 * (1 - weighted_energy / weight) : 0;
  allocation.bandwidth_reduction_pct = time > 0 ? 100 * (1 - bandwidth_time / time) : 0;
}

OperatingLevels nominal_levels(const AcceleratorConfig& config) {
  return {config.clock.frequency_mhz, config.clock.voltage_v, config.dram.bandwidth_gbps, config.dvfs.memory_voltage_v};
}

}  // namespace

bool refine_arada(DvfsAllocation& allocation, const std::vector<LayerTiming>& race_to_idle,
                  const std::vector<LayerTiming>& scheduled, const AcceleratorConfig& config, double tolerance) {
  const OperatingLevels nominal = nominal_levels(config);
  const bool quantised = allocation.scheme == DvfsScheme::kWithOverheadQuantised;
  bool changed = false;
  for (std::size_t i = 0; i < race_to_idle.size(); ++i) {
    LayerAllocation& a = allocation.layers[i];
    if (!race_to_idle[i].executed || race_to_idle[i].time_ns <= 0) continue;
    const double slowdown = scheduled[i].time_ns / race_to_idle[i].time_ns;
    if (slowdown <= 1 + tolerance) continue;
    OperatingLevels& l = a.levels;
    if (l.frequency_mhz < nominal.frequency_mhz) {
      l.frequency_mhz = std::min(nominal.frequency_mhz, l.frequency_mhz * slowdown);
      l.voltage_v = compute_voltage_at(config.dvfs, l.frequency_mhz);
      if (quantised) l.frequency_mhz = compute_level_at_or_above(config.dvfs, l.frequency_mhz).frequency_mhz;
      if (quantised) l.voltage_v = compute_level_at_or_above(config.dvfs, l.frequency_mhz).voltage_v;
      changed = true;
    }
    if (l.dram_bandwidth_gbps < nominal.dram_bandwidth_gbps) {
      l.dram_bandwidth_gbps = std::min(nominal.dram_bandwidth_gbps, l.dram_bandwidth_gbps * slowdown);
      l.memory_voltage_v = memory_voltage_at(config.dvfs, l.dram_bandwidth_gbps);
      if (quantised) {
        const MemoryLevel level = memory_level_at_or_above(config.dvfs, l.dram_bandwidth_gbps);
        l.dram_bandwidth_gbps = level.bandwidth_gbps;
        l.memory_voltage_v = level.voltage_v;
      }
      changed = true;
    }
    if (changed && a.decision.find("raised") == std::string::npos) a.decision += "; raised after re-simulation";
  }
  summarise(allocation, race_to_idle, nominal);
  return changed;
}

const std::vector<std::string>& dvfs_scheme_names() {
  static const std::vector<std::string> names = {"rti", "ideal", "vf-oh", "vf-oh-q"};
  return names;
}

DvfsScheme parse_dvfs_scheme(const std::string& name) {
  const auto& names = dvfs_scheme_names();
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end())
    throw std::invalid_argument("unknown DVFS scheme '" + name + "'; known: rti, ideal, vf-oh, vf-oh-q");
  return static_cast<DvfsScheme>(it - names.begin());
}

std::string dvfs_scheme_name(DvfsScheme scheme) {
  return dvfs_scheme_names().at(static_cast<std::size_t>(scheme));
}

DvfsAllocation allocate_arada(const std::vector<LayerTiming>& race_to_idle, const AcceleratorConfig& config,
                              DvfsScheme scheme) {
  const SchemeRules rules = rules_of(scheme, config.dvfs);
  const OperatingLevels nominal = nominal_levels(config);
  DvfsAllocation allocation;
  allocation.scheme = scheme;
  for (std::size_t i = 0; i < race_to_idle.size(); ++i) {
    const LayerTiming& t = race_to_idle[i];
    LayerAllocation a;
    a.name = t.name;
    a.levels = nominal;
    a.bound = "n/a";
    a.decision = t.executed ? "race to idle" : "not executed";
    if (t.executed) {
      a.hideable_stall_ns = std::max(0.0, t.stall_ns - t.fill_stall_ns - t.drain_stall_ns);
      a.compute_ns = std::max(0.0, t.time_ns - t.stall_ns);
      a.bound = a.hideable_stall_ns > 0 ? "memory" : "compute";
      if (rules.allocate && a.bound == "memory")
        lower_compute(t, a, rules, config.dvfs, nominal, next_fill_ns(race_to_idle, i));
      if (rules.allocate && a.bound == "compute") lower_bandwidth(t, a, rules, config.dvfs, nominal);
    }
    allocation.layers.push_back(a);
  }
  summarise(allocation, race_to_idle, nominal);
  return allocation;
}

}  // namespace ergon
