#pragma once
// `ergon sweep --plot`: total energy against the one swept key, stacked by component (like CNNergy's
// GLB study, seed 003 Fig. 13(c)), per workload, as gnuplot PNG and SVG; and the optimum.
#include <string>

#include "sim/sweep/sweep_points.hpp"

namespace ergon {

// Reads out_dir/results.csv; writes energy_<workload>.{dat,gp,png,svg}; returns a summary of the optima.
std::string plot_sweep(const std::string& out_dir, const SweepGrid& grid);

}  // namespace ergon
