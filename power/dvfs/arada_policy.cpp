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

constexpr std::size_t kNone = SIZE_MAX;

std::size_t next_executed(const std::vector<LayerTiming>& layers, std::size_t index) {
  for (std::size_t j = index + 1; j < layers.size(); ++j) {
    if (layers[j].executed) return j;
  }
  return kNone;
}

std::size_t previous_executed(const std::vector<LayerTiming>& layers, std::size_t index) {
  for (std::size_t j = index; j-- > 0;) {
    if (layers[j].executed) return j;
  }
  return kNone;
}

// eq. 1 with T_total - T_stall = T_execution: the array slowed to F until its work fills the time it
// waited, less the switching it must absorb: into its own level (overlapping its first fetch) unless the
// layer before already absorbed that switch, and, at the next layer's start, out of it and into the next
// layer's memory level. Each switch is charged to one layer only. Returns whether the clock was lowered.
bool lower_compute(const LayerTiming& t, LayerAllocation& a, const SchemeRules& rules, const DvfsConfig& dvfs,
                   const OperatingLevels& nominal, bool switch_in_charged, double switch_out) {
  const double switch_in = switch_in_charged ? 0.0 : std::max(0.0, rules.compute_switch_ns - t.fill_stall_ns);
  const double budget_ns = a.compute_ns + a.hideable_stall_ns + a.deadline_slack_ns - switch_in - switch_out;
  if (budget_ns <= a.compute_ns) {
    a.decision = fmt::format("stall {:.0f} ns does not pay for switching ({:.0f} ns exposed)", a.hideable_stall_ns,
                             switch_in + switch_out);
    return false;
  }
  const double wanted_mhz =
      std::max(nominal.frequency_mhz * a.compute_ns / budget_ns, dvfs.compute_levels.front().frequency_mhz);
  const ComputeLevel level = compute_level_for(dvfs, wanted_mhz, rules.quantised);
  if (level.frequency_mhz >= nominal.frequency_mhz) {
    a.decision = "no legal level below the nominal one fits";
    return false;
  }
  a.levels.frequency_mhz = level.frequency_mhz;
  a.levels.voltage_v = level.voltage_v;
  a.decision = a.bound == BoundDomain::kMemory ? "memory-bound: compute clock lowered (eq. 1)"
                                               : "compute clock lowered into the deadline's slack";
  return true;
}

// The DRAM slowed to the layer's demand: its bytes spread over the time between the first tiles and the
// final write-back. (Switching back up is issued once the layer's reads are done, during its last pass.)
void lower_bandwidth(const LayerTiming& t, LayerAllocation& a, const DvfsConfig& dvfs, const OperatingLevels& nominal) {
  const double window_ns = t.time_ns - t.fill_stall_ns - t.drain_stall_ns;
  if (window_ns <= t.dram_busy_ns) {
    a.decision = "compute-bound, but the DRAM has no slack that pays for switching";
    return;
  }
  const double wanted_gbps = std::max(t.dram_bytes / window_ns, dvfs.memory_levels.front().bandwidth_gbps);
  const MemoryLevel level = memory_level_for(dvfs, wanted_gbps);
  if (level.bandwidth_gbps >= nominal.dram_bandwidth_gbps) {
    a.decision = "compute-bound; no legal bandwidth below the maximum fits";
    return;
  }
  a.levels.dram_bandwidth_gbps = level.bandwidth_gbps;
  a.levels.memory_voltage_v = level.voltage_v;
  a.decision = "compute-bound: DRAM bandwidth lowered to demand (eq. 2)";
}

// Compute-bound layers first. With a memory switch overhead, lowering the bandwidth stalls the layer's
// first fetch; only a memory-bound layer just before it, finishing early, can hide that.
void allocate_bandwidth(const std::vector<LayerTiming>& timings, DvfsAllocation& allocation, const SchemeRules& rules,
                        const DvfsConfig& dvfs, const OperatingLevels& nominal) {
  for (std::size_t i = 0; i < timings.size(); ++i) {
    LayerAllocation& a = allocation.layers[i];
    if (a.bound != BoundDomain::kCompute) continue;
    if (rules.memory_switch_ns > 0) {
      const std::size_t previous = previous_executed(timings, i);
      const double slack = previous == kNone ? 0 : allocation.layers[previous].hideable_stall_ns;
      if (previous == kNone || allocation.layers[previous].bound != BoundDomain::kMemory ||
          slack <= rules.memory_switch_ns + rules.compute_switch_ns) {
        a.decision = "compute-bound; no slack just before it hides the memory switch";
        continue;
      }
    }
    lower_bandwidth(timings[i], a, dvfs, nominal);
  }
}

// Then memory-bound layers, each absorbing the switches at the next layer's start.
void allocate_compute(const std::vector<LayerTiming>& timings, DvfsAllocation& allocation, const SchemeRules& rules,
                      const DvfsConfig& dvfs, const OperatingLevels& nominal) {
  std::size_t charged_boundary = kNone;  // the layer whose start switch an earlier layer absorbed
  for (std::size_t i = 0; i < timings.size(); ++i) {
    LayerAllocation& a = allocation.layers[i];
    if (a.bound != BoundDomain::kMemory && a.deadline_slack_ns <= 0) continue;
    const std::size_t next = next_executed(timings, i);
    const bool next_lowers_bandwidth =
        next != kNone && allocation.layers[next].levels.dram_bandwidth_gbps < nominal.dram_bandwidth_gbps;
    const double switch_out = next == kNone
                                  ? 0.0
                                  : std::max(std::max(0.0, rules.compute_switch_ns - timings[next].fill_stall_ns),
                                             next_lowers_bandwidth ? rules.memory_switch_ns : 0.0);
    if (lower_compute(timings[i], a, rules, dvfs, nominal, charged_boundary == i, switch_out)) charged_boundary = next;
    if (next_lowers_bandwidth && rules.memory_switch_ns > 0 && a.levels.frequency_mhz >= nominal.frequency_mhz) {
      LayerAllocation& unhidden = allocation.layers[next];  // nothing hides its memory switch after all
      unhidden.levels.dram_bandwidth_gbps = nominal.dram_bandwidth_gbps;
      unhidden.levels.memory_voltage_v = nominal.memory_voltage_v;
      unhidden.decision = "compute-bound; the layer before cannot hide the memory switch";
    }
  }
}

// eq. 6 over the network (layers weighted by their compute-domain energy) and the mean bandwidth reduction.
void summarise(DvfsAllocation& allocation, const std::vector<LayerTiming>& race_to_idle,
               const OperatingLevels& nominal) {
  double weighted_energy = 0, weight = 0, bandwidth_time = 0, time = 0;
  for (std::size_t i = 0; i < race_to_idle.size(); ++i) {
    LayerAllocation& a = allocation.layers[i];
    if (!race_to_idle[i].executed) continue;
    // eq. 5: (V_RA/V)^2 x F_RA/F x T_execution(RA)/T_execution, with the execution stretched to
    // T_execution x F/F_RA, which leaves (V_RA/V)^2; when F_RA is eq. 1's, T_execution(RA) =
    // T_execution + T_stall and this is eq. 6. The compute domain only: ARADA leaves memory energy out.
    const double v = a.levels.voltage_v / nominal.voltage_v;
    a.normalised_energy = a.compute_ns > 0 ? v * v : 1.0;
    weighted_energy += race_to_idle[i].compute_energy_pj * a.normalised_energy;
    weight += race_to_idle[i].compute_energy_pj;
    bandwidth_time += race_to_idle[i].time_ns * a.levels.dram_bandwidth_gbps / nominal.dram_bandwidth_gbps;
    time += race_to_idle[i].time_ns;
  }
  allocation.estimated_saving_pct = weight > 0 ? 100 * (1 - weighted_energy / weight) : 0;
  allocation.bandwidth_reduction_pct = time > 0 ? 100 * (1 - bandwidth_time / time) : 0;
}

}  // namespace

BoundDomain bound_domain(std::optional<ResourceKind> bound) {
  if (!bound) return BoundDomain::kNone;
  switch (*bound) {
    case ResourceKind::kArray:
    case ResourceKind::kBufferPort:
    case ResourceKind::kNetworkBus:
    case ResourceKind::kSequencer: return BoundDomain::kCompute;
    case ResourceKind::kMemory:
    case ResourceKind::kFillDrain: return BoundDomain::kMemory;
    case ResourceKind::kDvfsSwitch: return BoundDomain::kNone;
  }
  return BoundDomain::kNone;
}

const char* bound_domain_name(BoundDomain domain) {
  switch (domain) {
    case BoundDomain::kCompute: return "compute";
    case BoundDomain::kMemory: return "memory";
    case BoundDomain::kNone: return "n/a";
  }
  return "n/a";
}

void summarise_allocation(DvfsAllocation& allocation, const std::vector<LayerTiming>& race_to_idle,
                          const AcceleratorConfig& config) {
  summarise(allocation, race_to_idle, nominal_levels(config));
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
                              DvfsScheme scheme, double time_scale) {
  const SchemeRules rules = rules_of(scheme, config.dvfs);
  const OperatingLevels nominal = nominal_levels(config);
  DvfsAllocation allocation;
  allocation.scheme = scheme;
  for (const LayerTiming& t : race_to_idle) {
    LayerAllocation a;
    a.name = t.name;
    a.levels = nominal;
    a.decision = t.executed ? "race to idle" : "not executed";
    if (t.executed) {
      a.hideable_stall_ns = std::max(0.0, t.stall_ns - t.fill_stall_ns - t.drain_stall_ns);
      a.compute_ns = std::max(0.0, t.time_ns - t.stall_ns);
      a.bound = bound_domain(t.bound);
      a.deadline_slack_ns = (time_scale - 1) * t.time_ns;
    }
    allocation.layers.push_back(a);
  }
  if (rules.allocate) {
    // Under a deadline every layer slows its clock; the DRAM keeps its rate (one lowered domain per layer).
    if (time_scale <= 1) allocate_bandwidth(race_to_idle, allocation, rules, config.dvfs, nominal);
    allocate_compute(race_to_idle, allocation, rules, config.dvfs, nominal);
  }
  summarise(allocation, race_to_idle, nominal);
  return allocation;
}

}  // namespace ergon
