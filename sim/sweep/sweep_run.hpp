#pragma once
// `ergon sweep` and `ergon sweep-merge` (docs/sweep.md): run every point of a sweep grid in worker
// processes, stream results.csv as points finish, resume an interrupted sweep, split it into shards for
// several machines and merge the shards back into the single-process result, byte for byte.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/simulation.hpp"
#include "sim/sweep/sweep_points.hpp"

namespace ergon {

// Runs the points todo[0], todo[1], ... (indices into the grid) anywhere (the Python package hands them to
// an executor) and gives each point's rows to `finished(i, rows)`, i into `todo`, from the calling thread as
// the point ends; rows as SweepPointSimulator::rows makes them. Throws to stop (Interrupted when the user
// stopped it): the rows already given are kept.
using SweepPointDone = std::function<void(std::size_t i, const std::string& rows)>;
using SweepExecutor = std::function<void(const std::vector<std::size_t>& todo, const SweepPointDone& finished)>;
using SweepMessage = std::function<void(const std::string& line)>;

struct SweepOptions {
  std::string config_path;
  std::vector<std::string> overrides;  // fixed --set assignments applied to every point
  std::vector<std::string> workload_paths;
  std::vector<SweepParameter> parameters;
  std::vector<SweepLink> links;  // --link: keys computed at each point (sweep_links.hpp), sources resolved
  std::int64_t batch = 0;        // --batch: images per layer where batch is not swept; 0: each layer's own
  std::string out_dir;
  unsigned jobs = 1;
  bool resume = false;
  Shard shard;
  Fidelity fidelity = Fidelity::kTransactionLevel;
  bool plot = false;
  std::string plot_by;  // --plot-by: a line per value of this swept key (sweep_plot.hpp)
  bool pareto = false;  // --pareto: pareto.csv and a plot per workload (sweep_pareto.hpp)
  bool reverse_order = false;       // run the points last first; the results are the same, byte for byte
  std::size_t max_points = 100000;  // a larger grid is refused before anything runs (--max-points)
  double max_output_mb = 1024;      // results.csv's size bound, estimated before anything runs
  // Continue the sweep in out_dir when it holds this same sweep and none of its input files changed after
  // its sweep.json was written; start one where there is none (the Python package's default).
  bool resume_unless_inputs_changed = false;
  SweepExecutor executor;  // empty: `jobs` worker processes forked from this one
  // One line each, without its line end: what the sweep wrote (stdout when empty) and what it is doing, the
  // point counts and a model's import notes (stderr when empty). The Python package logs them instead.
  SweepMessage on_result, on_status;
};

// One point of a sweep on its own, as a worker elsewhere runs it: reads the config document and the
// workloads once, from `options` as run_sweep takes them (out_dir, jobs, shard and the messages unused).
class SweepPointSimulator {
 public:
  explicit SweepPointSimulator(SweepOptions options);
  ~SweepPointSimulator();
  SweepPointSimulator(const SweepPointSimulator&) = delete;
  SweepPointSimulator& operator=(const SweepPointSimulator&) = delete;
  std::size_t size() const;  // the grid's points
  // The point's rows of results.csv, byte for byte as run_sweep writes them; "!" and the reason when the
  // point cannot be simulated. Throws std::out_of_range for an index not below size().
  std::string rows(std::size_t index) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The most one row of results.csv takes (19 fields, numbers in shortest round-trip form, names): the
// estimate --max-output-mb is checked against.
inline constexpr std::uint64_t kSweepRowMaxBytes = 400;

void run_sweep(const SweepOptions& options);
std::string list_sweep_points(const SweepOptions& options);  // one line per point of this shard
// `on_result` takes the line saying what was merged (stdout when empty).
void merge_sweeps(const std::vector<std::string>& shard_dirs, const std::string& out_dir,
                  const SweepMessage& on_result = {});

}  // namespace ergon
