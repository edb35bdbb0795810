#include "power/dvfs/latency_feedback.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "arch/dvfs_levels.hpp"

namespace ergon {
namespace {

constexpr std::size_t kNone = SIZE_MAX;

double total_time_ns(const std::vector<LayerTiming>& layers) {
  double total = 0;
  for (const LayerTiming& layer : layers) total += layer.time_ns;
  return total;
}

void annotate(LayerAllocation& layer, const std::string& what) {
  const std::size_t previous = layer.decision.find("; ");
  layer.decision = (previous == std::string::npos ? layer.decision : layer.decision.substr(0, previous)) + "; " + what;
}

std::vector<LayerTiming> scaled(std::vector<LayerTiming> layers, double time_scale) {
  for (LayerTiming& layer : layers) layer.time_ns *= time_scale;
  return layers;
}

}  // namespace

LatencyFeedback::LatencyFeedback(const DvfsAllocation& allocation, const std::vector<LayerTiming>& race_to_idle,
                                 const AcceleratorConfig& config, double tolerance, double time_scale, double limit_ns)
    : race_to_idle_(scaled(race_to_idle, time_scale)),
      config_(config),
      nominal_(nominal_levels(config)),
      quantised_(allocation.scheme == DvfsScheme::kWithOverheadQuantised),
      tolerance_(tolerance),
      limit_ns_(limit_ns > 0 ? limit_ns : (1 + tolerance) * total_time_ns(race_to_idle_)),
      probes_(race_to_idle.size()) {}

bool LatencyFeedback::on_time(const std::vector<LayerTiming>& scheduled) const {
  return total_time_ns(scheduled) <= limit_ns_;
}

bool LatencyFeedback::lowered(const LayerAllocation& layer) const {
  return lowers_compute(layer) || layer.levels.dram_bandwidth_gbps < nominal_.dram_bandwidth_gbps;
}

// The policy lowers one domain per layer: the compute clock of a memory-bound layer (or of any layer
// under a deadline), or the DRAM of a compute-bound one. False: the DRAM's, if any.
bool LatencyFeedback::lowers_compute(const LayerAllocation& layer) const {
  return layer.levels.frequency_mhz < nominal_.frequency_mhz;
}

double LatencyFeedback::slowness(const LayerAllocation& layer) const {
  if (lowers_compute(layer)) return nominal_.frequency_mhz / layer.levels.frequency_mhz;
  return nominal_.dram_bandwidth_gbps / layer.levels.dram_bandwidth_gbps;
}

void LatencyFeedback::set_slowness(LayerAllocation& layer, double slowness) const {
  if (slowness <= 1 + 1e-9) {
    layer.levels = nominal_;
    return;
  }
  if (lowers_compute(layer)) {
    const ComputeLevel level = compute_level_for(config_.dvfs, nominal_.frequency_mhz / slowness, quantised_);
    layer.levels.frequency_mhz = level.frequency_mhz;
    layer.levels.voltage_v = level.voltage_v;
  } else {
    const MemoryLevel level = memory_level_for(config_.dvfs, nominal_.dram_bandwidth_gbps / slowness);
    layer.levels.dram_bandwidth_gbps = level.bandwidth_gbps;
    layer.levels.memory_voltage_v = level.voltage_v;
  }
}

double LatencyFeedback::max_delay_slope_ns(const LayerAllocation& layer, std::size_t index) const {
  return lowers_compute(layer) ? layer.compute_ns : race_to_idle_[index].dram_busy_ns;
}

// The slowness of the next level of the table above `slowness` (quantised schedules).
double LatencyFeedback::next_faster(const LayerAllocation& layer, double slowness) const {
  if (lowers_compute(layer)) {
    const double above_mhz =
        compute_level_at_or_above(config_.dvfs, nominal_.frequency_mhz / slowness * (1 + 1e-9)).frequency_mhz;
    return nominal_.frequency_mhz / above_mhz;
  }
  const double above_gbps =
      memory_level_at_or_above(config_.dvfs, nominal_.dram_bandwidth_gbps / slowness * (1 + 1e-9)).bandwidth_gbps;
  return nominal_.dram_bandwidth_gbps / above_gbps;
}

// A layer at the nominal levels hands its delay to the lowered layer just before it: the switch back to
// the nominal levels and that layer's late write-back are timed in it.
LatencyFeedback::Ownership LatencyFeedback::attribute(const DvfsAllocation& allocation,
                                                      const std::vector<LayerTiming>& scheduled) const {
  Ownership ownership{std::vector<double>(scheduled.size(), 0.0), std::vector<double>(scheduled.size(), 0.0)};
  std::size_t previous = kNone;
  for (std::size_t i = 0; i < scheduled.size(); ++i) {
    if (!race_to_idle_[i].executed) continue;
    std::size_t owner = kNone;
    if (lowered(allocation.layers[i])) {
      owner = i;
    } else if (previous != kNone && lowered(allocation.layers[previous])) {
      owner = previous;
    }
    if (owner != kNone) {
      ownership.delay_ns[owner] += scheduled[i].time_ns - race_to_idle_[i].time_ns;
      ownership.owned_rti_ns[owner] += race_to_idle_[i].time_ns;
    }
    previous = i;
  }
  return ownership;
}

bool LatencyFeedback::raise_late_layers(DvfsAllocation& allocation, const std::vector<LayerTiming>& scheduled) {
  const Ownership ownership = attribute(allocation, scheduled);
  bool changed = false;
  for (std::size_t j = 0; j < allocation.layers.size(); ++j) {
    LayerAllocation& layer = allocation.layers[j];
    if (!lowered(layer)) continue;
    // A fifth of the tolerance is left for the layers nobody owns; each step aims a quarter inside.
    const double allowed_ns = 0.8 * tolerance_ * ownership.owned_rti_ns[j];
    const double x = slowness(layer), delay_ns = ownership.delay_ns[j];
    Probe& probe = probes_[j];
    if (delay_ns <= allowed_ns) {
      if (x > probe.on_time_slowness) probe.on_time_slowness = x, probe.on_time_delay_ns = delay_ns;
      continue;
    }
    if (probe.late_slowness == 0 || x < probe.late_slowness) probe.late_slowness = x, probe.late_delay_ns = delay_ns;
    // Newton's step with the steepest slope the delay can have: the lowered domain's own busy time at
    // the nominal level grows in proportion to the slowness. Never below a level known to keep time.
    const double slope_ns = max_delay_slope_ns(layer, j);
    const double target_ns = 0.75 * allowed_ns;
    const double next = slope_ns > 0 ? probe.late_slowness - (probe.late_delay_ns - target_ns) / slope_ns : 1.0;
    set_slowness(layer, std::max(next, probe.on_time_slowness));
    if (lowered(layer) && slowness(layer) >= probe.late_slowness * (1 - 1e-12)) {
      set_slowness(layer, next_faster(layer, probe.late_slowness));  // a quantised table rounded back
    }
    annotate(layer, fmt::format("raised after re-simulation ({:.0f} ns late)", delay_ns));
    changed = true;
  }
  return changed;
}

bool LatencyFeedback::restore_latest(DvfsAllocation& allocation, const std::vector<LayerTiming>& scheduled,
                                     std::size_t count) {
  const Ownership ownership = attribute(allocation, scheduled);
  std::vector<std::size_t> candidates;
  for (std::size_t j = 0; j < allocation.layers.size(); ++j) {
    if (lowered(allocation.layers[j])) candidates.push_back(j);
  }
  if (candidates.empty()) return false;
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](std::size_t a, std::size_t b) { return ownership.delay_ns[a] > ownership.delay_ns[b]; });
  candidates.resize(std::min(count, candidates.size()));
  for (std::size_t j : candidates) {
    LayerAllocation& layer = allocation.layers[j];
    layer.levels = nominal_;
    annotate(layer, fmt::format("restored to the nominal levels: still {:.0f} ns late after feedback, its stalls do "
                                "not overlap a slower level",
                                ownership.delay_ns[j]));
    ++allocation.restored_layers;
  }
  return true;
}

}  // namespace ergon
