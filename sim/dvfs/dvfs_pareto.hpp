#pragma once
// `ergon dvfs --pareto`: energy against latency across DVFS schemes and deadlines (docs/arada.md). Every
// point is a re-simulated schedule (sim/dvfs/dvfs_run.hpp); the front keeps the points no other point
// beats on both energy and latency.
#include <string>
#include <vector>

#include "sim/dvfs/dvfs_run.hpp"

namespace ergon {

struct ParetoPoint {
  std::string scheme;
  double deadline_ns = 0;  // 0: iso-latency (race to idle's latency)
  double latency_ns = 0;
  double energy_pj = 0;
  bool latency_kept = true;
  bool on_front = false;
};

// Deadlines as multiples of race to idle's latency: 1 (iso-latency), then the slack a frame rate leaves.
inline const std::vector<double> kParetoDeadlineFactors = {1.0, 1.05, 1.1, 1.25, 1.5, 2.0};

std::vector<ParetoPoint> dvfs_pareto(const Chip& chip, const Workload& workload, const SimulationResult& race_to_idle);
std::string pareto_csv(const std::vector<ParetoPoint>& points);
std::string pareto_gnuplot(const std::string& title);  // reads pareto.csv; writes pareto.png and pareto.svg

// A scheme's name for a plot legend: its option name and what it means, e.g. "vf-oh: switch overhead charged".
std::string dvfs_scheme_legend(const std::string& scheme);

}  // namespace ergon
