#pragma once
// The STM32N6 phase-resolved benchmark (seed 001; docs/stm32n6.md): one inference iteration as the board
// runs it, in four phases marked by two trigger signals (Table II):
//   pre-inference  (T1=1, T2=0): the CPU copies the input tensor from external flash into internal RAM;
//   inference      (T1=1, T2=1): the NPU runs the network (the Ergon simulation, at the point's clocks);
//   post-inference (T1=0, T2=1): the CPU post-processes and sends the prediction over the serial link;
//   idle           (T1=0, T2=0): between iterations.
// CPU phases follow the documented cost model in the config's `soc` section.
#include <string>
#include <vector>

#include "arch/accelerator_config.hpp"
#include "network/workload.hpp"
#include "power/energy_table.hpp"

namespace ergon {

enum class Phase { kPreInference, kInference, kPostInference, kIdle };
const char* phase_name(Phase phase);

struct PhaseMeasure {
  double energy_uj = 0;
  double latency_us = 0;
  double edp_js() const { return energy_uj * 1e-6 * latency_us * 1e-6; }  // J x s, as the paper's Table VI
};

struct PhaseBreakdown {
  std::string point;
  PhaseMeasure pre, inference, post;
  PhaseMeasure total() const;  // pre + inference + post (idle excluded, as the paper's totals)
  // Inputs the CPU model used.
  double input_bytes = 0, outputs = 0;
  std::size_t npu_layers = 0;
  double npu_simulated_us = 0, npu_simulated_energy_uj = 0;  // the simulation alone, before the SoC terms
};

// The accelerator config as the NPU runs at `point`: its clock, core voltage and RAM bandwidth.
AcceleratorConfig config_at_point(const AcceleratorConfig& config, const SocOperatingPoint& point);

PhaseBreakdown run_phase_benchmark(const AcceleratorConfig& config, const EnergyTable& table, const Workload& workload,
                                   const std::string& point);

// rEDP = (EDP_reference - EDP_other) / EDP_reference x 100 (positive: `other` is better), as Table VI.
double relative_edp_pct(const PhaseMeasure& reference, const PhaseMeasure& other);

}  // namespace ergon
