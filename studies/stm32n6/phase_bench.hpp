#pragma once
// The STM32N6 phase-resolved benchmark (seed 001; docs/stm32n6.md): one inference iteration as the board
// runs it, in four phases marked by two trigger signals (Table II):
//   pre-inference  (T1=1, T2=0): the CPU copies the input tensor from external flash into internal RAM;
//   inference      (T1=1, T2=1): the NPU runs the network (the Ergon simulation, at the point's clocks);
//   post-inference (T1=0, T2=1): the CPU post-processes and sends the prediction over the serial link;
//   idle           (T1=0, T2=0): between iterations.
// CPU phases follow the documented cost model in the config's `soc` section; energies are what the shunt
// sees: only blocks on a measured supply rail, each at its rail's voltage.
#include <string>
#include <vector>

#include "arch/accelerator_config.hpp"
#include "network/workload.hpp"
#include "power/energy_table.hpp"
#include "sim/simulation.hpp"  // Fidelity
#include "studies/stm32n6/soc_config.hpp"

namespace ergon {

enum class Phase { kPreInference, kInference, kPostInference, kIdle };
const char* phase_name(Phase phase);

struct PhaseMeasure {
  double energy_uj = 0;
  double latency_us = 0;
  double edp_js() const { return energy_uj * 1e-6 * latency_us * 1e-6; }  // J x s, as the paper's Table VI
};

// The NPU simulation at one point, split by supply rail block (the SoC terms come later).
struct NpuRun {
  std::string point;
  std::size_t layers = 0;  // executed layers
  double time_us = 0;
  double compute_energy_uj = 0;  // the `npu` block: MACs, RF, NoC, GLB, clock tree, control, leakage
  double ram_energy_uj = 0;      // the `internal_ram` block (the DRAM role of the simulation)
};

// What the CPU model needs of a workload: over the batch, which one pre-inference phase loads and one
// post-inference phase reports (in one serial message).
struct WorkloadShape {
  double input_bytes = 0, outputs = 0;
};
WorkloadShape workload_shape(const AcceleratorConfig& config, const Workload& workload);

struct PhaseBreakdown {
  std::string point;
  PhaseMeasure pre, inference, post;
  PhaseMeasure total() const;  // pre + inference + post (idle excluded, as the paper's totals)
  // Inputs the CPU model used.
  double input_bytes = 0, outputs = 0;
  std::size_t npu_layers = 0;
  double npu_simulated_us = 0, npu_simulated_energy_uj = 0;  // the simulation alone (measured rails), unscaled
  double cpu_phase_power_mw = 0;                             // core-domain power in the CPU phases
  double static_power_mw = 0;                                // its leakage part (also drawn in the inference)
};

// The accelerator config as the NPU runs at `point`: its clock, its rail's voltage and the RAM bandwidth.
AcceleratorConfig config_at_point(const AcceleratorConfig& config, const SocOperatingPoint& point);

NpuRun simulate_npu(const AcceleratorConfig& config, const EnergyTable& table, const Workload& workload,
                    const std::string& point, Fidelity fidelity);

// The SoC cost model around a simulated inference (no simulation here).
PhaseBreakdown phase_breakdown(const AcceleratorConfig& config, const EnergyTable& table, const WorkloadShape& shape,
                               const NpuRun& npu);

// Core-domain power (mW) at `point` while the CPU works, by term (docs/stm32n6.md, "CPU phases").
struct CpuPhasePower {
  double static_mw = 0, npu_clock_mw = 0, cpu_dynamic_mw = 0;
  double total_mw() const { return static_mw + npu_clock_mw + cpu_dynamic_mw; }
};
// Leakage of the core domain at `point` (mW), V x I_leak(V), if the CPU's rail is measured.
double soc_static_power_mw(const SocConfig& soc, const std::string& point);
// The post-inference phase's serial message: serial_bytes at serial_baud, 10 bits a byte (8N1), in us.
double serial_message_us(const SocConfig& soc);
CpuPhasePower cpu_phase_power(const SocConfig& soc, const EnergyTable& table, const std::string& point);

PhaseBreakdown run_phase_benchmark(const AcceleratorConfig& config, const EnergyTable& table, const Workload& workload,
                                   const std::string& point, Fidelity fidelity);

// rEDP = (EDP_reference - EDP_other) / EDP_reference x 100 (positive: `other` is better), as Table VI.
double relative_edp_pct(const PhaseMeasure& reference, const PhaseMeasure& other);

}  // namespace ergon
