#pragma once
// A run in four typed stages, each a function of the last one's result:
//   plan     (RunPlan)          every layer mapped onto the chip's dataflow: its plan, batch and levels
//   simulate (SimulationResult) the SystemC modules run the plans; each layer's measured activity
//   price    (SimulationResult) each layer's energy at its levels, then the totals row
//   write                       the command's outputs (report files, a sweep's rows, Python's texts)
// run_pipeline chains them; `ergon run`, `sweep`, `dvfs` and the Python package call it, `ergon map` plans
// only (plan_layers). Simulation (sim/simulation.hpp) is the same pipeline for a config and table.
#include <cstdint>
#include <functional>
#include <vector>

#include "arch/controller/layer_job.hpp"
#include "sim/chip.hpp"
#include "sim/simulation.hpp"

namespace ergon {

struct RunPlan {
  std::vector<LayerResult> layers;  // one per workload layer: name, batch, levels, note and mapping filled in
  std::vector<LayerJob> jobs;       // the layers run on the array, in order
  std::vector<std::int64_t> batch_per_layer;
};

// Fails before anything is simulated when the options' DVFS levels or mapping file do not fit the workload.
void check_run_options(const Chip& chip, const Workload& workload, const SimulationOptions& options);

RunPlan plan_run(const Chip& chip, const Workload& workload, const SimulationOptions& options);
// Energy is left at zero for price_run; throws Interrupted when the observers stop the run.
SimulationResult simulate_run(const Chip& chip, const Workload& workload, RunPlan plan,
                              const SimulationOptions& options);
void price_run(const Chip& chip, SimulationResult& result);

using RunWriter = std::function<void(const SimulationResult& result)>;
// plan -> simulate -> price -> write (when given); returns the priced result.
SimulationResult run_pipeline(const Chip& chip, const Workload& workload, const SimulationOptions& options,
                              const RunWriter& write = {});

}  // namespace ergon
