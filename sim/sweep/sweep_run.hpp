#pragma once
// `ergon sweep` and `ergon sweep-merge` (docs/sweep.md): run every point of a sweep grid in worker
// processes, stream results.csv as points finish, resume an interrupted sweep, split it into shards for
// several machines and merge the shards back into the single-process result, byte for byte.
#include <string>
#include <vector>

#include "sim/simulation.hpp"
#include "sim/sweep/sweep_points.hpp"

namespace ergon {

struct SweepOptions {
  std::string config_path;
  std::vector<std::string> overrides;  // fixed --set assignments applied to every point
  std::vector<std::string> workload_paths;
  std::vector<SweepParameter> parameters;
  std::string out_dir;
  unsigned jobs = 1;
  bool resume = false;
  Shard shard;
  Fidelity fidelity = Fidelity::kTransactionLevel;
  bool plot = false;
  bool reverse_order = false;       // run the points last first; the results are the same, byte for byte
  std::size_t max_points = 100000;  // a larger grid is refused before anything runs (--max-points)
  double max_output_mb = 1024;      // results.csv's size bound, estimated before anything runs
};

// The most one row of results.csv takes (19 fields, numbers in shortest round-trip form, names): the
// estimate --max-output-mb is checked against.
inline constexpr std::uint64_t kSweepRowMaxBytes = 400;

void run_sweep(const SweepOptions& options);
std::string list_sweep_points(const SweepOptions& options);  // one line per point of this shard
void merge_sweeps(const std::vector<std::string>& shard_dirs, const std::string& out_dir);

}  // namespace ergon
