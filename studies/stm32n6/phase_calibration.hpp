#pragma once
// The STM32N6 measurements (reference/stm32n6/bartoli_tables.yaml, seed 001 Tables IV-V) and the fit of
// the `soc` cost model to them. Calibration policy (docs/stm32n6.md): only the reference point's
// (H-Perf) measurements are used; every other point is a prediction; no parameter belongs to one model.
#include <map>
#include <string>
#include <vector>

#include "studies/stm32n6/phase_bench.hpp"

namespace ergon {

struct MeasuredPhases {
  PhaseMeasure pre, inference, post, total;
};

// model (workload name) -> point -> measured phases.
using PhaseMeasurements = std::map<std::string, std::map<std::string, MeasuredPhases>>;
PhaseMeasurements load_phase_measurements(const std::string& path);

// A measured model's simulations, one per operating point (the NPU simulation does not depend on the fitted
// SoC values, so calibration, leave-one-model-out and predictions share these runs).
struct ModelRuns {
  WorkloadShape shape;
  std::map<std::string, NpuRun> runs;  // by operating point
};
ModelRuns simulate_model(const AcceleratorConfig& config, const EnergyTable& table, const Workload& workload,
                         Fidelity fidelity);

struct SocCalibration {
  SocConfig fitted;                 // the config's soc section with the fitted values
  std::string yaml;                 // those values as the config's `cpu:` and `npu:` keys
  std::vector<std::string> models;  // the models fitted on
};

// Fits on `soc_of(config).reference_point` over every model in `runs` with measurements there, except
// `held_out` (leave-one-model-out: the held-out model's measurements never enter the fit).
SocCalibration calibrate_soc(const AcceleratorConfig& config, const EnergyTable& table,
                             const PhaseMeasurements& measured, const std::map<std::string, ModelRuns>& runs,
                             const std::string& held_out = "");

}  // namespace ergon
