#pragma once
// `ergon sweep --plot` and `sweep-merge --plot`: total energy against a swept key, stacked by component (like
// CNNergy's GLB study, seed 003 Fig. 13(c)), per workload, as gnuplot PNG and SVG; and the optimum. With
// --plot-by a second swept key, the total energy against the first, one line per value of the second.
#include <string>
#include <vector>

#include "sim/sweep/sweep_points.hpp"

namespace ergon {

// What a plot draws: energy against `x`; `series` empty: stacked by component; otherwise the total, a line per
// value of `series`.
struct PlotKeys {
  std::string x;
  std::string series;
};

// The keys --plot draws (with --plot-by `plot_by`), checked before anything runs: a UsageError unless the
// sweep has one swept key (two with --plot-by, which names one of them) and x's values are numbers.
PlotKeys plot_keys(const std::vector<SweepParameter>& parameters, const std::string& plot_by);

// The files plot_sweep writes for one workload (by its name): energy_<name>.{dat,gp,png,svg}.
std::vector<std::string> plot_file_names(const std::string& workload);

// Reads out_dir/results.csv (its columns by name: the keys, `layer`, <component>_pj for each of `components`,
// total_pj); writes energy_<workload>.{dat,gp,png,svg}; returns a summary of the optima.
std::string plot_sweep(const std::string& out_dir, const PlotKeys& keys, const std::vector<std::string>& components);

// The energy components of a results.csv: its <component>_pj columns but total_pj, in column order.
std::vector<std::string> energy_components_in(const std::string& results_path);

// The swept keys and their values as a sweep.json records them (sweep-merge checks its --plot before merging).
// Throws InputError naming the file when it cannot be read.
std::vector<SweepParameter> manifest_parameters(const std::string& manifest_path);

// "alexnet on eyeriss (pe_array.word_bits=8)": what a plot of `workload` in a sweep's folder shows, from its
// sweep.json; the workload alone when that cannot be read.
std::string plot_subject(const std::string& out_dir, const std::string& workload);

// A file name's stem for a workload's name: every character but letters and digits as '_'.
std::string workload_file_stem(const std::string& workload);

}  // namespace ergon
