#pragma once
// The STM32N6 measurements (reference/stm32n6/bartoli_tables.yaml, seed 001 Tables IV-V) and the fit of
// the `soc` cost model to them. Calibration policy (docs/stm32n6.md): only the reference point's
// (H-Perf) measurements are used; every other point is a prediction; no parameter belongs to one model.
#include <map>
#include <string>
#include <vector>

#include "sim/phases/phase_bench.hpp"

namespace ergon {

struct MeasuredPhases {
  PhaseMeasure pre, inference, post, total;
};

// model (workload name) -> point -> measured phases.
using PhaseMeasurements = std::map<std::string, std::map<std::string, MeasuredPhases>>;
PhaseMeasurements load_phase_measurements(const std::string& path);

struct SocCalibration {
  SocConfig fitted;  // the config's soc section with the fitted values
  std::string yaml;  // those values as the config's `cpu:` and `npu:` keys
  std::vector<std::string> models;
};

// Fits on `config.soc->reference_point`; `workloads` are the measured models' workload files.
SocCalibration calibrate_soc(const AcceleratorConfig& config, const EnergyTable& table,
                             const PhaseMeasurements& measured, const std::map<std::string, std::string>& workloads);

}  // namespace ergon
