#pragma once
// The STM32N6 study's `soc` config section (configs/stm32n6.yaml, docs/stm32n6.md). The study declares its
// keys itself (soc_keys.cpp, registered with the accelerator config's schema); the loader keeps the values
// in AcceleratorConfig::study_sections["soc"], so arch/ knows nothing of them.
#include <string>
#include <vector>

#include "arch/accelerator_config.hpp"

namespace ergon {

// A microcontroller around the accelerator (configs/stm32n6.yaml, docs/stm32n6.md): its operating points
// and the cost model of the CPU phases around an inference. Values marked fitted come from
// `ergon bench-phases --calibrate` on the reference point's measurements.
struct SocOperatingPoint {
  std::string name;
  double core_voltage_v = 0;
  double cpu_mhz = 0, npu_mhz = 0, ram_mhz = 0;
};
// A supply rail and the blocks it feeds (docs/stm32n6.md, "Supply rails"). The paper's shunt sits in series
// with the core domain (seed 001, Sec. III and IV): only blocks on a `measured` rail enter the phase energies.
struct SocRail {
  std::string name;
  bool follows_core = true;  // the rail is VDDCORE: its voltage is the point's core_voltage_v
  double voltage_v = 0;      // otherwise a fixed voltage
  bool measured = true;      // behind the shunt
  std::vector<std::string> blocks;
  double voltage_at(const SocOperatingPoint& point) const { return follows_core ? point.core_voltage_v : voltage_v; }
};
// Blocks with an energy model (each on exactly one rail) and blocks that only take time (on an unmeasured rail).
inline const char* const kSocEnergyBlocks[] = {"cpu", "npu", "internal_ram"};
inline const char* const kSocTimeOnlyBlocks[] = {"external_flash", "serial"};

struct SocConfig {
  std::vector<SocOperatingPoint> operating_points;
  std::vector<SocRail> rails;      // default: one measured VDDCORE rail feeding cpu, npu and internal_ram
  std::string reference_point;     // the point the fitted values were fitted at
  double ram_bytes_per_cycle = 8;  // NPU <-> internal RAM: bandwidth = ram_mhz x this
  // CPU phases (Cortex-M55), at the reference point.
  double pre_inference_cycles = 0;   // fitted: fixed work before the input copy
  double flash_bytes_per_us = 0;     // fitted: external flash -> internal RAM copy rate
  double post_inference_cycles = 0;  // fitted: fixed post-processing
  double cycles_per_output = 0;      // fitted: per output value
  double serial_baud = 921600;       // assumed (the paper gives none)
  double serial_bytes = 16;          // assumed: one prediction message per inference
  double cpu_power_mw = 0;           // fitted: core-domain power while the CPU works (all terms below)
  bool npu_clock_running = true;     // assumed: the NPU clock tree ticks in the CPU phases (gated only in inference)
  // Assumed: the CPU runs the runtime that starts the NPU's epochs and takes its interrupts, so its own
  // dynamic power (at f_CPU, unchanged by the NPU's clock) is drawn through the inference too; the paper
  // clock-gates only "unnecessary peripherals" there (seed 001, Sec. IV step 3).
  bool cpu_runs_during_inference = true;
  // Leakage of the core domain in every phase: power_mw x (V/V_ref) x exp((V - V_ref) / dibl_slope).
  double static_power_mw = 0;          // at the reference point; assumed (no published figure), see docs
  double leakage_dibl_slope_mv = 100;  // subthreshold leakage's e-fold per VDD step (n kT/q / DIBL), assumed
  // NPU phase.
  double npu_layer_overhead_cycles = 0;  // fitted: per executed layer (set-up the simulation does not model)
  double npu_baseline_power_mw = 0;      // fitted: the rest of the core domain during inference
  double npu_energy_scale = 1;           // fitted: the energy table's process against the NPU's
  double idle_us = 100;                  // trace only: between runs (not measured in the paper)
  const SocOperatingPoint& point(const std::string& name) const;  // throws std::invalid_argument
  const SocRail& rail_of(const std::string& block) const;         // throws std::invalid_argument
};

// The config's soc section, or null when it has none.
const SocConfig* find_soc(const AcceleratorConfig& config);
// The section being read (created when the config has none yet).
SocConfig& soc_of(AcceleratorConfig& config);
// The section's values, the defaults when the config has none.
const SocConfig& soc_of(const AcceleratorConfig& config);

}  // namespace ergon
