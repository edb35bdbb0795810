#include "sim/phases/phase_bench.hpp"

#include <stdexcept>

#include "sim/simulation.hpp"

namespace ergon {
namespace {

const SocConfig& soc_of(const AcceleratorConfig& config) {
  if (!config.soc)
    throw std::invalid_argument(config.file + ": no `soc` section: give an MCU config such as configs/stm32n6.yaml");
  return *config.soc;
}

// Core-domain power scales as dynamic power, V^2 f, from the reference point.
double scaled_power_mw(double power_mw, const SocOperatingPoint& reference, const SocOperatingPoint& point,
                       double reference_mhz, double point_mhz) {
  const double v = point.core_voltage_v / reference.core_voltage_v;
  return power_mw * v * v * point_mhz / reference_mhz;
}

}  // namespace

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
  AcceleratorConfig at = config;
  at.clock.frequency_mhz = point.npu_mhz;
  at.clock.voltage_v = point.core_voltage_v;
  at.dram.bandwidth_gbps = point.ram_mhz * soc_of(config).ram_bytes_per_cycle / 1e3;
  at.dvfs.compute_levels = {{point.npu_mhz, point.core_voltage_v}};
  at.dvfs.memory_levels = {{at.dram.bandwidth_gbps, at.dvfs.memory_voltage_v}};
  return at;
}

PhaseBreakdown run_phase_benchmark(const AcceleratorConfig& config, const EnergyTable& table, const Workload& workload,
                                   const std::string& point_name) {
  const SocConfig& soc = soc_of(config);
  const SocOperatingPoint& point = soc.point(point_name);
  const SocOperatingPoint& reference = soc.point(soc.reference_point);
  PhaseBreakdown b;
  b.point = point_name;
  const int word_bytes = config.pe_array.word_bits / 8;
  for (const Layer& layer : workload.layers()) {
    if (layer.op == OpKind::kInput) b.input_bytes += static_cast<double>(layer.output_shape.elements() * word_bytes);
  }
  b.outputs = static_cast<double>(workload.layers().back().output_shape.elements());

  const double cpu_power_mw = scaled_power_mw(soc.cpu_power_mw, reference, point, reference.cpu_mhz, point.cpu_mhz);
  b.pre.latency_us = soc.pre_inference_cycles / point.cpu_mhz + b.input_bytes / soc.flash_bytes_per_us;
  b.pre.energy_uj = cpu_power_mw * b.pre.latency_us * 1e-3;
  const double serial_us = soc.serial_bytes * 10 / soc.serial_baud * 1e6;  // one message, 8N1
  b.post.latency_us = (soc.post_inference_cycles + soc.cycles_per_output * b.outputs) / point.cpu_mhz + serial_us;
  b.post.energy_uj = cpu_power_mw * b.post.latency_us * 1e-3;

  const SimulationResult npu = Simulation(config_at_point(config, point), table, workload, SimulationOptions{}).run();
  for (const LayerResult& layer : npu.layers) b.npu_layers += layer.executed ? 1 : 0;
  b.npu_simulated_us = npu.total.time_ns / 1e3;
  b.npu_simulated_energy_uj = npu.total.energy.total_pj() * 1e-6;
  b.inference.latency_us =
      b.npu_simulated_us + static_cast<double>(b.npu_layers) * soc.npu_layer_overhead_cycles / point.npu_mhz;
  const double baseline_mw =
      scaled_power_mw(soc.npu_baseline_power_mw, reference, point, reference.npu_mhz, point.npu_mhz);
  b.inference.energy_uj =
      soc.npu_energy_scale * b.npu_simulated_energy_uj + baseline_mw * b.inference.latency_us * 1e-3;
  return b;
}

double relative_edp_pct(const PhaseMeasure& reference, const PhaseMeasure& other) {
  return reference.edp_js() > 0 ? 100 * (reference.edp_js() - other.edp_js()) / reference.edp_js() : 0;
}

}  // namespace ergon
