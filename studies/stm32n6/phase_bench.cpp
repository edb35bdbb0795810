#include "studies/stm32n6/phase_bench.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "sim/simulation.hpp"

namespace ergon {
namespace {

const SocConfig& required_soc(const AcceleratorConfig& config) {
  const SocConfig* soc = find_soc(config);
  if (soc == nullptr) {
    throw std::invalid_argument(config.file + ": no `soc` section: give an MCU config such as configs/stm32n6.yaml");
  }
  return *soc;
}

// Dynamic power of one clock domain, C V^2 f, from its value at the reference point.
double dynamic_power_mw(double reference_mw, double v_ref, double v, double f_ref_mhz, double f_mhz) {
  return reference_mw * (v / v_ref) * (v / v_ref) * (f_mhz / f_ref_mhz);
}

// The NPU's clock tree ticking with nothing to do: the energy table's clock-tree power at the point's NPU
// clock and rail voltage, scaled to the chip like the rest of the simulated NPU energy.
double idle_npu_clock_mw(const SocConfig& soc, const EnergyTable& table, const std::string& point_name) {
  const SocRail& rail = soc.rail_of("npu");
  if (!soc.npu_clock_running || !rail.measured) return 0;
  const SocOperatingPoint& point = soc.point(point_name);
  const double v = rail.voltage_at(point) / table.nominal_voltage_v;
  return soc.npu_energy_scale * table.clock_tree_power_mw * v * v * point.npu_mhz / table.clock_reference_frequency_mhz;
}

}  // namespace

// Leakage power V x I_leak(V), with I_leak growing exponentially with VDD through DIBL.
double soc_static_power_mw(const SocConfig& soc, const std::string& point_name) {
  const SocRail& rail = soc.rail_of("cpu");
  if (!rail.measured) return 0;
  const double v_ref = rail.voltage_at(soc.point(soc.reference_point)), v = rail.voltage_at(soc.point(point_name));
  return soc.static_power_mw * (v / v_ref) * std::exp((v - v_ref) * 1e3 / soc.leakage_dibl_slope_mv);
}

double serial_message_us(const SocConfig& soc) {
  return soc.serial_bytes * 10 / soc.serial_baud * 1e6;
}

const char* phase_name(Phase phase) {
  switch (phase) {
    case Phase::kPreInference: return "pre-inference";
    case Phase::kInference: return "inference";
    case Phase::kPostInference: return "post-inference";
    case Phase::kIdle: return "idle";
  }
  return "?";
}

PhaseMeasure PhaseBreakdown::total() const {
  return {pre.energy_uj + inference.energy_uj + post.energy_uj,
          pre.latency_us + inference.latency_us + post.latency_us};
}

AcceleratorConfig config_at_point(const AcceleratorConfig& config, const SocOperatingPoint& point) {
  const SocConfig& soc = required_soc(config);
  AcceleratorConfig at = config;
  at.clock.frequency_mhz = point.npu_mhz;
  at.clock.voltage_v = soc.rail_of("npu").voltage_at(point);
  at.dram.bandwidth_gbps = point.ram_mhz * soc.ram_bytes_per_cycle / 1e3;
  at.dvfs.compute_levels = {{point.npu_mhz, at.clock.voltage_v}};
  at.dvfs.memory_levels = {{at.dram.bandwidth_gbps, at.dvfs.memory_voltage_v}};
  return at;
}

WorkloadShape workload_shape(const AcceleratorConfig& config, const Workload& workload) {
  WorkloadShape shape;
  const int word_bytes = config.pe_array.word_bits / 8;
  for (const Layer& layer : workload.layers()) {
    if (layer.op == OpKind::kInput)
      shape.input_bytes += static_cast<double>(layer.output_shape.elements() * word_bytes * layer.batch);
  }
  const Layer& last = workload.layers().back();
  shape.outputs = static_cast<double>(last.output_shape.elements() * last.batch);
  return shape;
}

NpuRun simulate_npu(const AcceleratorConfig& config, const EnergyTable& table, const Workload& workload,
                    const std::string& point_name, Fidelity fidelity) {
  const SocOperatingPoint& point = required_soc(config).point(point_name);
  const SimulationResult sim = Simulation(config_at_point(config, point), table, workload, options_at(fidelity)).run();
  NpuRun run;
  run.point = point_name;
  for (const LayerResult& layer : sim.layers) run.layers += layer.executed ? 1 : 0;
  run.time_us = sim.total.time_ns / 1e3;
  // The simulation prices RAM bytes at the memory's nominal voltage (it has no schedule here); the RAM's
  // energy per byte is calibrated at the reference point and scales with its rail's voltage squared.
  const SocConfig& soc = required_soc(config);
  const SocRail& ram_rail = soc.rail_of("internal_ram");
  const double v = ram_rail.voltage_at(point) / ram_rail.voltage_at(soc.point(soc.reference_point));
  const double ram_pj = sim.total.energy.component_pj(kMemoryComponent);
  run.compute_energy_uj = (sim.total.energy.total_pj() - ram_pj) * 1e-6;
  run.ram_energy_uj = ram_pj * 1e-6 * v * v;
  return run;
}

CpuPhasePower cpu_phase_power(const SocConfig& soc, const EnergyTable& table, const std::string& point_name) {
  const SocOperatingPoint& reference = soc.point(soc.reference_point);
  const SocOperatingPoint& point = soc.point(point_name);
  const SocRail& cpu_rail = soc.rail_of("cpu");
  CpuPhasePower power;
  power.static_mw = soc_static_power_mw(soc, point_name);
  power.npu_clock_mw = idle_npu_clock_mw(soc, table, point_name);
  // The CPU's own dynamic power is what the fitted core power leaves at the reference point.
  const double static_reference_mw = soc_static_power_mw(soc, soc.reference_point);
  const double npu_clock_reference_mw = idle_npu_clock_mw(soc, table, soc.reference_point);
  const double cpu_reference_mw = soc.cpu_power_mw - static_reference_mw - npu_clock_reference_mw;
  if (cpu_reference_mw < 0) {
    throw std::invalid_argument(fmt::format(
        "soc: cpu.power_mw ({:.4g} mW) is less than the static power ({:.4g} mW) and the idle NPU clock "
        "({:.4g} mW) it includes at '{}': lower soc.static.power_mw or set soc.cpu.npu_clock_running: false",
        soc.cpu_power_mw, static_reference_mw, npu_clock_reference_mw, soc.reference_point));
  }
  if (cpu_rail.measured) {
    power.cpu_dynamic_mw = dynamic_power_mw(cpu_reference_mw, cpu_rail.voltage_at(reference),
                                            cpu_rail.voltage_at(point), reference.cpu_mhz, point.cpu_mhz);
  }
  return power;
}

PhaseBreakdown phase_breakdown(const AcceleratorConfig& config, const EnergyTable& table, const WorkloadShape& shape,
                               const NpuRun& npu) {
  const SocConfig& soc = required_soc(config);
  const SocOperatingPoint& point = soc.point(npu.point);
  const SocOperatingPoint& reference = soc.point(soc.reference_point);
  PhaseBreakdown b;
  b.point = npu.point;
  b.input_bytes = shape.input_bytes;
  b.outputs = shape.outputs;

  const CpuPhasePower cpu = cpu_phase_power(soc, table, npu.point);
  b.cpu_phase_power_mw = cpu.total_mw();
  b.static_power_mw = cpu.static_mw;
  b.pre.latency_us = soc.pre_inference_cycles / point.cpu_mhz + b.input_bytes / soc.flash_bytes_per_us;
  b.pre.energy_uj = b.cpu_phase_power_mw * b.pre.latency_us * 1e-3;
  b.post.latency_us =
      (soc.post_inference_cycles + soc.cycles_per_output * b.outputs) / point.cpu_mhz + serial_message_us(soc);
  b.post.energy_uj = b.cpu_phase_power_mw * b.post.latency_us * 1e-3;

  b.npu_layers = npu.layers;
  b.npu_simulated_us = npu.time_us;
  b.npu_simulated_energy_uj = (soc.rail_of("npu").measured ? npu.compute_energy_uj : 0) +
                              (soc.rail_of("internal_ram").measured ? npu.ram_energy_uj : 0);
  b.inference.latency_us =
      b.npu_simulated_us + static_cast<double>(b.npu_layers) * soc.npu_layer_overhead_cycles / point.npu_mhz;
  const SocRail& npu_rail = soc.rail_of("npu");
  const double baseline_mw = dynamic_power_mw(soc.npu_baseline_power_mw, npu_rail.voltage_at(reference),
                                              npu_rail.voltage_at(point), reference.npu_mhz, point.npu_mhz);
  const double cpu_mw = soc.cpu_runs_during_inference ? cpu.cpu_dynamic_mw : 0;
  b.inference.energy_uj = soc.npu_energy_scale * b.npu_simulated_energy_uj +
                          (baseline_mw + b.static_power_mw + cpu_mw) * b.inference.latency_us * 1e-3;
  return b;
}

PhaseBreakdown run_phase_benchmark(const AcceleratorConfig& config, const EnergyTable& table, const Workload& workload,
                                   const std::string& point, Fidelity fidelity) {
  return phase_breakdown(config, table, workload_shape(config, workload),
                         simulate_npu(config, table, workload, point, fidelity));
}

double relative_edp_pct(const PhaseMeasure& reference, const PhaseMeasure& other) {
  return reference.edp_js() > 0 ? 100 * (reference.edp_js() - other.edp_js()) / reference.edp_js() : 0;
}

}  // namespace ergon
