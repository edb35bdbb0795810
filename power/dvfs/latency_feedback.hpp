#pragma once
// Keeps a DVFS schedule's promise: the inference ends within `tolerance` of its race-to-idle latency
// (docs/arada.md, "Feedback"). ARADA's run-time manager (seed 002, Sec. 3.2, Fig. 4) corrects its levels
// from what the hardware reports; here every re-simulation is such a report.
//
// Each lowered layer owns the delay it causes: its own, and that of the full-level layer after it (the
// switch back and a late write-back land there). A late layer's slowness (nominal / lowered value) is cut
// by Newton's step with the steepest slope its delay can have (the lowered domain's busy time at the
// nominal level), so it approaches the largest slowness that keeps time from the late side, never
// passing a level already known to keep time. Should rounds
// run out, the layers that are still late return to the nominal levels, most delay first; with all of
// them back the schedule is race to idle, so the promise always holds.
#include <cstddef>
#include <vector>

#include "power/dvfs/arada_policy.hpp"

namespace ergon {

class LatencyFeedback {
 public:
  // `time_scale` > 1: every layer may take that much longer than at race to idle (a deadline).
  // The promise: the inference ends by `limit_ns`, by default race to idle's latency x time_scale x
  // (1 + tolerance).
  LatencyFeedback(const DvfsAllocation& allocation, const std::vector<LayerTiming>& race_to_idle,
                  const AcceleratorConfig& config, double tolerance = 0.005, double time_scale = 1.0,
                  double limit_ns = 0);

  // The whole inference within tolerance of its target (race to idle, or the deadline).
  bool on_time(const std::vector<LayerTiming>& scheduled) const;
  // Raises the lowered layers whose delay exceeds their share of the tolerance; false when none did.
  bool raise_late_layers(DvfsAllocation& allocation, const std::vector<LayerTiming>& scheduled);
  // Returns the `count` lowered layers with the most delay to the nominal levels; false when none is left.
  bool restore_latest(DvfsAllocation& allocation, const std::vector<LayerTiming>& scheduled, std::size_t count);

 private:
  // What is known about one lowered layer: slowness 1 is the nominal level.
  struct Probe {
    double on_time_slowness = 1, on_time_delay_ns = 0;
    double late_slowness = 0, late_delay_ns = 0;  // late_slowness 0: no late level seen yet
  };
  struct Ownership {
    std::vector<double> delay_ns;      // per layer, what it owns
    std::vector<double> owned_rti_ns;  // the race-to-idle time of what it owns
  };

  Ownership attribute(const DvfsAllocation& allocation, const std::vector<LayerTiming>& scheduled) const;
  bool lowered(const LayerAllocation& layer) const;
  bool lowers_compute(const LayerAllocation& layer) const;
  double slowness(const LayerAllocation& layer) const;
  void set_slowness(LayerAllocation& layer, double slowness) const;
  double max_delay_slope_ns(const LayerAllocation& layer, std::size_t index) const;
  double next_faster(const LayerAllocation& layer, double slowness) const;

  std::vector<LayerTiming> race_to_idle_;  // each layer's time scaled to its target
  const AcceleratorConfig& config_;
  OperatingLevels nominal_;
  bool quantised_;
  double tolerance_;
  double limit_ns_;
  std::vector<Probe> probes_;
};

}  // namespace ergon
