#pragma once
// `ergon sweep --plot`: total energy against the one swept key, stacked by component (like CNNergy's
// GLB study, seed 003 Fig. 13(c)), per workload, as gnuplot PNG and SVG; and the optimum.
#include <string>
#include <vector>

#include "sim/sweep/sweep_points.hpp"

namespace ergon {

// Reads out_dir/results.csv (its columns by name: the swept key, `layer`, <component>_pj for each of
// `components`, total_pj); writes energy_<workload>.{dat,gp,png,svg}; returns a summary of the optima.
// The files plot_sweep writes for one workload (by its name): energy_<name>.{dat,gp,png,svg}.
std::vector<std::string> plot_file_names(const std::string& workload);

std::string plot_sweep(const std::string& out_dir, const SweepGrid& grid, const std::vector<std::string>& components);

}  // namespace ergon
