#pragma once
// `--pareto` on `ergon sweep` and `sweep-merge` (docs/sweep.md, "Pareto front"): the points of each workload
// that no other point of that workload beats. The objectives, all minimised, are results.csv's total-row
// columns time_ns (latency), total_pj (energy) and area_mm2 (area) when that column is there with a value at
// every point. A point dominates another when it is no worse in every objective and better in at least one;
// the front is every point no other point dominates, so points equal in every objective are all on it.
#include <cstdint>
#include <string>
#include <vector>

namespace ergon {

inline constexpr const char* kParetoCsv = "pareto.csv";

struct SweepParetoPoint {
  std::size_t index = 0;  // the sweep point
  std::string workload;
  std::vector<double> objectives;  // in SweepParetoFront::objectives' order
  bool on_front = false;
  std::uint64_t offset = 0, length = 0;  // its total row in results.csv
};

struct SweepParetoFront {
  std::vector<std::string> objectives;   // results.csv's columns: time_ns, total_pj[, area_mm2]
  std::string area_left_out;             // why area_mm2 is not an objective although the column is there
  std::vector<SweepParetoPoint> points;  // every point's total row, in the file's (point) order
  std::uint64_t header_length = 0;       // results.csv's header record, with its line end
};

// Reads results.csv's total rows (columns by name) and marks each workload's front. Throws InputError
// naming the file, line and column of a value that is not a number.
SweepParetoFront sweep_pareto_front(const std::string& results_path);

// Whether `a` dominates `b`: no worse in every objective, better in one.
bool dominates(const std::vector<double>& a, const std::vector<double>& b);

// pareto.csv: results.csv's header and the total rows of the points on the front, byte for byte, in point order.
std::string sweep_pareto_csv(const SweepParetoFront& front, const std::string& results_path);

// The plot of one workload's points, energy against latency with the front marked: pareto_<name>.{dat,gp,png,svg}.
std::vector<std::string> sweep_pareto_file_names(const std::string& workload);

// Writes pareto.csv and each workload's plot into `out_dir` (which holds results.csv and sweep.json); returns a
// line per workload and the files written.
std::string write_sweep_pareto(const std::string& out_dir);

}  // namespace ergon
