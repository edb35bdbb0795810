#include "studies/stm32n6/phase_calibration.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "common/least_squares.hpp"
#include "common/yaml_view.hpp"
#include "network/workload.hpp"

namespace ergon {
namespace {

MeasuredPhases parse_phases(YamlMap map) {
  const auto list = [&](const std::string& key) {
    const YamlView view = map.at(key);
    std::vector<double> values;
    for (const YamlView& item : view.items()) values.push_back(item.as_number(kNonNegative));
    if (values.size() != 4) view.fail("give pre-inference, inference, post-inference and total");
    return values;
  };
  const std::vector<double> e = list("energy_uj"), t = list("latency_us");
  map.reject_unknown_keys();
  return {{e[0], t[0]}, {e[1], t[1]}, {e[2], t[2]}, {e[3], t[3]}};
}

}  // namespace

PhaseMeasurements load_phase_measurements(const std::string& path) {
  auto origin = std::make_shared<YamlOrigin>(YamlOrigin{path, {}});
  YamlMap root(YamlView(load_yaml_file(path), origin, ""));
  root.get_string("source");
  root.get_map("operating_points");
  PhaseMeasurements measured;
  YamlMap models = root.get_map("models");
  for (const auto& model : models.view().node()) {
    const std::string name = model.first.as<std::string>();
    YamlMap points = models.get_map(name);
    for (const auto& point : points.view().node()) {
      const std::string point_name = point.first.as<std::string>();
      measured[name][point_name] = parse_phases(points.get_map(point_name));
    }
    points.reject_unknown_keys();
  }
  models.reject_unknown_keys();
  root.reject_unknown_keys();
  return measured;
}

ModelRuns simulate_model(const AcceleratorConfig& config, const EnergyTable& table, const Workload& workload,
                         Fidelity fidelity) {
  ModelRuns model;
  model.shape = workload_shape(config, workload);
  for (const SocOperatingPoint& p : soc_of(config).operating_points) {
    model.runs[p.name] = simulate_npu(config, table, workload, p.name, fidelity);
  }
  return model;
}

namespace {

// The inference energy as scale x simulated energy + baseline power x time, after leakage (an input) and,
// if it runs through the inference, the CPU's own power are taken out. The CPU's share of the fitted core
// power is what the idle NPU clock leaves, and that clock is priced with the energy scale being fitted,
// so the two are solved together by fixed-point iteration (the clock's share moves the scale by far
// less than itself, so this converges in a few rounds).
void fit_npu_energy(SocConfig& fitted, const EnergyTable& table, const std::string& point_name, double static_mw,
                    const std::vector<std::vector<double>>& energy_rows, const std::vector<double>& energy_uj) {
  for (int round = 0; round < 100; ++round) {
    const double cpu_mw =
        fitted.cpu_runs_during_inference ? cpu_phase_power(fitted, table, point_name).cpu_dynamic_mw : 0;
    std::vector<double> npu_uj = energy_uj;
    for (std::size_t i = 0; i < npu_uj.size(); ++i) npu_uj[i] -= (static_mw + cpu_mw) * energy_rows[i][1];
    const double previous_scale = fitted.npu_energy_scale;
    const LeastSquaresFit energy = fit_least_squares(energy_rows, npu_uj);
    fitted.npu_energy_scale = energy.coefficients[0];
    fitted.npu_baseline_power_mw = energy.coefficients[1];
    if (fitted.npu_baseline_power_mw < 0) {  // no power can be negative: fit the simulated energy's scale alone
      std::vector<std::vector<double>> scale_rows;
      for (const auto& row : energy_rows) scale_rows.push_back({row[0]});
      fitted.npu_energy_scale = fit_least_squares(scale_rows, npu_uj).coefficients[0];
      fitted.npu_baseline_power_mw = 0;
    }
    if (fitted.npu_energy_scale <= 0 || !fitted.cpu_runs_during_inference || !fitted.npu_clock_running ||
        std::abs(fitted.npu_energy_scale - previous_scale) <= 1e-12 * std::abs(previous_scale)) {
      return;
    }
  }
  throw std::runtime_error("the NPU energy scale and the CPU's share of the core power did not converge");
}

}  // namespace

SocCalibration calibrate_soc(const AcceleratorConfig& config, const EnergyTable& table,
                             const PhaseMeasurements& measured, const std::map<std::string, ModelRuns>& runs,
                             const std::string& held_out) {
  if (find_soc(config) == nullptr) throw std::invalid_argument(config.file + ": no `soc` section to calibrate");
  const SocConfig& soc = soc_of(config);
  const std::string& point_name = soc.reference_point;
  const SocOperatingPoint& point = soc.point(point_name);
  const double static_mw = soc_static_power_mw(soc, point_name);
  std::vector<std::vector<double>> pre_rows, post_rows, power_rows, overhead_rows, energy_rows;
  std::vector<double> pre_y, post_y, power_y, overhead_y, energy_y;
  SocCalibration calibration;
  for (const auto& [model, model_runs] : runs) {
    const auto found = measured.find(model);
    if (model == held_out || found == measured.end() || found->second.count(point_name) == 0) continue;
    if (model_runs.runs.count(point_name) == 0) throw std::invalid_argument(model + ": no run at " + point_name);
    const MeasuredPhases& m = found->second.at(point_name);
    const NpuRun& npu = model_runs.runs.at(point_name);
    const double npu_energy_uj = (soc.rail_of("npu").measured ? npu.compute_energy_uj : 0) +
                                 (soc.rail_of("internal_ram").measured ? npu.ram_energy_uj : 0);
    pre_rows.push_back({1, model_runs.shape.input_bytes});
    pre_y.push_back(m.pre.latency_us);
    post_rows.push_back({1, model_runs.shape.outputs});
    post_y.push_back(m.post.latency_us - serial_message_us(soc));
    power_rows.push_back({m.pre.latency_us + m.post.latency_us});
    power_y.push_back(m.pre.energy_uj + m.post.energy_uj);
    overhead_rows.push_back({static_cast<double>(npu.layers) / point.npu_mhz});
    overhead_y.push_back(m.inference.latency_us - npu.time_us);
    energy_rows.push_back({npu_energy_uj, m.inference.latency_us * 1e-3});
    energy_y.push_back(m.inference.energy_uj);
    calibration.models.push_back(model);
  }
  if (calibration.models.size() < 3) throw std::invalid_argument("calibration needs three measured models or more");
  SocConfig fitted = soc;
  const LeastSquaresFit pre = fit_least_squares(pre_rows, pre_y);
  fitted.pre_inference_cycles = std::max(0.0, pre.coefficients[0]) * point.cpu_mhz;
  fitted.flash_bytes_per_us = 1 / pre.coefficients[1];
  LeastSquaresFit post = fit_least_squares(post_rows, post_y);
  if (post.coefficients[1] < 0) {  // more outputs cannot take less time: a constant post-processing cost
    std::vector<std::vector<double>> constant(post_rows.size(), std::vector<double>{1});
    post = fit_least_squares(constant, post_y);
    post.coefficients.push_back(0);
  }
  fitted.post_inference_cycles = std::max(0.0, post.coefficients[0]) * point.cpu_mhz;
  fitted.cycles_per_output = post.coefficients[1] * point.cpu_mhz;
  fitted.cpu_power_mw = fit_least_squares(power_rows, power_y).coefficients[0] * 1e3;
  fitted.npu_layer_overhead_cycles = std::max(0.0, fit_least_squares(overhead_rows, overhead_y).coefficients[0]);
  fit_npu_energy(fitted, table, point_name, static_mw, energy_rows, energy_y);
  if (fitted.flash_bytes_per_us <= 0 || fitted.npu_energy_scale <= 0 || fitted.npu_baseline_power_mw < 0) {
    throw std::runtime_error(fmt::format(
        "the calibration gave a non-physical value (flash {:.4g} B/us, NPU energy scale {:.4g}, baseline {:.4g} mW); "
        "check the measurements and the model",
        fitted.flash_bytes_per_us, fitted.npu_energy_scale, fitted.npu_baseline_power_mw));
  }
  calibration.fitted = fitted;
  cpu_phase_power(fitted, table, point_name);  // the fitted core power must hold its static and NPU-clock parts
  calibration.yaml = fmt::format(
      "  cpu:\n    pre_inference_cycles: {:.6g}\n    flash_bytes_per_us: {:.6g}\n    post_inference_cycles: {:.6g}\n"
      "    cycles_per_output: {:.6g}\n    serial_baud: {:.6g}\n    serial_bytes: {:.6g}\n    power_mw: {:.6g}\n"
      "    npu_clock_running: {}\n    runs_during_inference: {}\n"
      "  npu:\n    layer_overhead_cycles: {:.6g}\n    baseline_power_mw: {:.6g}\n    energy_scale: {:.6g}\n",
      fitted.pre_inference_cycles, fitted.flash_bytes_per_us, fitted.post_inference_cycles, fitted.cycles_per_output,
      fitted.serial_baud, fitted.serial_bytes, fitted.cpu_power_mw, fitted.npu_clock_running,
      fitted.cpu_runs_during_inference, fitted.npu_layer_overhead_cycles, fitted.npu_baseline_power_mw,
      fitted.npu_energy_scale);
  return calibration;
}

}  // namespace ergon
