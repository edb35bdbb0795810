#pragma once
// Blackthorn's check of its 1-D fitter against ground truth (seed 004, Sec. V-A and Fig. 7): measure a
// layer at every point of one dimension, the others fixed, then let the fitter choose its few points from
// those values and compare its curve with all of them. The paper did this for 64 sweeps of 1024 points
// on a Jetson Nano (MAPE 2.17 %).
#include <string>
#include <vector>

#include "power/estimators/blackthorn/layer_models.hpp"

namespace ergon::blackthorn {

struct SweepPlan {
  std::size_t sub_model = 0;        // index into the sub-model specs
  std::size_t dimension = 0;        // the swept one
  std::vector<double> coordinates;  // the fixed values of the others (the swept entry is ignored)
};

struct SweepCheck {
  SweepPlan plan;
  std::string label;  // e.g. "conv k3s1 along filters (channels 100, width 56, height 40)"
  std::vector<double> grid, truth_ms;
  FittedCurve fit;
  std::vector<double> measured;  // the grid values the fitter chose
  double mape_pct = 0, mae_ms = 0, max_pe_pct = 0;
};

// `count` sweeps over the conv sub-models: dimension and fixed coordinates drawn uniformly from `seed`.
std::vector<SweepPlan> plan_sweeps(const std::vector<SubModelSpec>& specs, std::size_t count, std::uint64_t seed);

// The ground truth along the swept dimension (every grid point, from `latency`), then the fit.
SweepCheck check_sweep(const std::vector<SubModelSpec>& specs, const SweepPlan& plan,
                       const std::vector<double>& truth_ms, const FitterSettings& settings);
// The layers a sweep measures, in grid order.
std::vector<LayerSpec> sweep_layers(const std::vector<SubModelSpec>& specs, const SweepPlan& plan);

}  // namespace ergon::blackthorn
