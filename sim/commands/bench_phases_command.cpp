// `ergon bench-phases`: the STM32N6 phase-resolved benchmark (docs/stm32n6.md).
#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "common/atomic_file.hpp"
#include "common/gnuplot.hpp"
#include "sim/commands/commands.hpp"
#include "sim/data_paths.hpp"
#include "sim/phases/phase_calibration.hpp"

namespace ergon {
namespace {

struct BenchOptions {
  std::string config_path;
  std::vector<std::string> overrides;
  std::string workload_path;
  std::vector<std::string> points;
  int runs = 3;
  std::string out_dir;
  bool calibrate = false;
  bool against_measurements = false;
};

std::string measurements_path() {
  return shipped_data_dir() + "/reference/stm32n6/bartoli_tables.yaml";
}

// The four MLPerf Tiny models of the paper's Table I, by their workload files.
std::map<std::string, std::string> mlperf_tiny_workloads() {
  std::map<std::string, std::string> files;
  for (const char* name : {"ds_cnn", "mobilenet_v1_025_vww", "resnet8", "autoencoder_toyadmos"}) {
    files[name] = shipped_data_dir() + "/workloads/" + name + ".yaml";
  }
  return files;
}

nlohmann::ordered_json measure_json(const PhaseMeasure& m) {
  return {{"energy_uj", m.energy_uj}, {"latency_us", m.latency_us}, {"edp_js", m.edp_js()}};
}

// Trigger and power traces of `runs` iterations: the phases in Table II's coding, idle between runs.
void write_traces(const PhaseBreakdown& b, int runs, double idle_us, double idle_power_mw, const std::string& dir) {
  struct Step {
    const char* name;
    int t1, t2;
    double us, uj;
  };
  const Step steps[] = {{"pre-inference", 1, 0, b.pre.latency_us, b.pre.energy_uj},
                        {"inference", 1, 1, b.inference.latency_us, b.inference.energy_uj},
                        {"post-inference", 0, 1, b.post.latency_us, b.post.energy_uj},
                        {"idle", 0, 0, idle_us, idle_power_mw * idle_us * 1e-3}};
  std::string vcd =
      "$version Ergon bench-phases $end\n$timescale 1 ns $end\n$scope module stm32n6 $end\n"
      "$var wire 1 ! trigger1 $end\n$var wire 1 \" trigger2 $end\n$var real 64 # core_power_mw $end\n"
      "$var real 64 $ cumulative_energy_uj $end\n$upscope $end\n$enddefinitions $end\n"
      "#0\n$dumpvars\n0!\n0\"\nr0 #\nr0 $\n$end\n";
  std::string csv = "time_us,phase,trigger1,trigger2,core_power_mw,cumulative_energy_uj\n";
  double time_us = 0, energy_uj = 0;
  for (int run = 0; run < runs; ++run) {
    for (const Step& s : steps) {
      const double power_mw = s.us > 0 ? s.uj / s.us * 1e3 : 0;
      vcd += fmt::format("#{}\n{}!\n{}\"\nr{:.6g} #\nr{:.6g} $\n", std::llround(time_us * 1e3), s.t1, s.t2, power_mw,
                         energy_uj);
      csv += fmt::format("{:.3f},{},{},{},{:.6g},{:.6g}\n", time_us, s.name, s.t1, s.t2, power_mw, energy_uj);
      time_us += s.us;
      energy_uj += s.uj;
      csv += fmt::format("{:.3f},{},{},{},{:.6g},{:.6g}\n", time_us, s.name, s.t1, s.t2, power_mw, energy_uj);
    }
  }
  vcd += fmt::format("#{}\n", std::llround(time_us * 1e3));
  write_file_atomically(dir + "/trace.vcd", vcd);
  write_file_atomically(dir + "/power_trace.csv", csv);
  write_file_atomically(dir + "/power_trace.gp", R"(# Seed 001 Fig. 4-style trace: `gnuplot power_trace.gp`
set datafile separator ','
set xlabel 'time (us)'
set ylabel 'core power (mW)'
set y2label 'cumulative energy (uJ)'
set y2tics
set ytics nomirror
set key top left
set grid
do for [out in "png svg"] {
  if (out eq "png") { set terminal pngcairo size 1000,500 font ',10'; set output 'power_trace.png' }
  else { set terminal svg size 1000,500 font ',10'; set output 'power_trace.svg' }
  plot 'power_trace.csv' every ::1 using 1:5 with lines lw 2 title 'core power', \
       '' every ::1 using 1:6 axes x1y2 with lines dt 2 lw 2 title 'cumulative energy', \
       '' every ::1 using 1:($3*20) with steps title 'trigger 1 (x20)', \
       '' every ::1 using 1:($4*10) with steps title 'trigger 2 (x10)'
}
)");
  run_gnuplot(dir, "power_trace.gp");
}

std::string phase_table(const std::string& title, const std::vector<PhaseBreakdown>& points) {
  std::string out =
      title + "\n" +
      fmt::format("{:<10} {:<16} {:>12} {:>12} {:>12}\n", "point", "phase", "energy uJ", "latency us", "EDP J*s");
  for (const PhaseBreakdown& b : points) {
    const std::pair<const char*, PhaseMeasure> rows[] = {
        {"pre-inference", b.pre}, {"inference", b.inference}, {"post-inference", b.post}, {"total", b.total()}};
    for (const auto& [name, m] : rows) {
      out += fmt::format("{:<10} {:<16} {:>12.2f} {:>12.2f} {:>12.3g}\n", b.point, name, m.energy_uj, m.latency_us,
                         m.edp_js());
    }
  }
  if (points.size() == 2) {
    const PhaseBreakdown &h = points[0], &l = points[1];
    out += fmt::format(
        "rEDP of {} against {} (Table VI; + is better): pre {:+.1f}%, inference {:+.1f}%, post {:+.1f}%, "
        "total {:+.1f}%\n",
        l.point, h.point, relative_edp_pct(h.pre, l.pre), relative_edp_pct(h.inference, l.inference),
        relative_edp_pct(h.post, l.post), relative_edp_pct(h.total(), l.total()));
  }
  return out;
}

void run_bench(const BenchOptions& o, const AcceleratorConfig& config, const EnergyTable& table) {
  const Workload workload = load_workload(o.workload_path);
  std::vector<PhaseBreakdown> results;
  for (const std::string& point : o.points) results.push_back(run_phase_benchmark(config, table, workload, point));
  std::cout << phase_table(workload.name() + " on " + config.name + " (simulated, per iteration)", results);
  if (o.out_dir.empty()) return;
  nlohmann::ordered_json json = {{"schema_version", 1}, {"workload", workload.name()}, {"config", config.name}};
  for (const PhaseBreakdown& b : results) {
    const std::string dir = o.out_dir + "/" + b.point;
    std::filesystem::create_directories(dir);
    const double idle_mw = b.pre.latency_us > 0 ? b.pre.energy_uj / b.pre.latency_us * 1e3 * 0.1 : 0;
    write_traces(b, o.runs, config.soc->idle_us, idle_mw, dir);
    json["points"][b.point] = {{"pre_inference", measure_json(b.pre)},
                               {"inference", measure_json(b.inference)},
                               {"post_inference", measure_json(b.post)},
                               {"total", measure_json(b.total())},
                               {"input_bytes", b.input_bytes},
                               {"outputs", b.outputs},
                               {"npu_layers", b.npu_layers},
                               {"npu_simulated_us", b.npu_simulated_us},
                               {"npu_simulated_energy_uj", b.npu_simulated_energy_uj}};
  }
  if (results.size() == 2) {
    const PhaseBreakdown &h = results[0], &l = results[1];
    json["redp_pct"] = {{"reference", h.point},
                        {"other", l.point},
                        {"pre_inference", relative_edp_pct(h.pre, l.pre)},
                        {"inference", relative_edp_pct(h.inference, l.inference)},
                        {"post_inference", relative_edp_pct(h.post, l.post)},
                        {"total", relative_edp_pct(h.total(), l.total())}};
  }
  write_file_atomically(o.out_dir + "/phases.json", json.dump(2) + "\n");
  std::cout << "wrote " << o.out_dir << "/phases.json and <point>/{trace.vcd,power_trace.csv,power_trace.gp}\n";
}

// Simulated against measured (Tables IV and V), per model, point and phase.
void run_against_measurements(const BenchOptions& o, const AcceleratorConfig& config, const EnergyTable& table) {
  const PhaseMeasurements measured = load_phase_measurements(measurements_path());
  std::string md =
      "| model | point | phase | energy uJ sim | measured | error | latency us sim | measured | error |\n"
      "|---|---|---|---|---|---|---|---|---|\n";
  std::string csv = "model,point,phase,energy_uj,measured_energy_uj,latency_us,measured_latency_us\n";
  double squared[2][2] = {};  // [prediction?][energy/latency]
  int count[2] = {};
  for (const auto& [model, path] : mlperf_tiny_workloads()) {
    for (const SocOperatingPoint& p : config.soc->operating_points) {
      const auto found = measured.find(model);
      if (found == measured.end() || found->second.count(p.name) == 0) continue;
      const MeasuredPhases& m = found->second.at(p.name);
      const PhaseBreakdown b = run_phase_benchmark(config, table, load_workload(path), p.name);
      const bool prediction = p.name != config.soc->reference_point;
      const std::pair<const char*, std::pair<PhaseMeasure, PhaseMeasure>> rows[] = {
          {"pre-inference", {b.pre, m.pre}},
          {"inference", {b.inference, m.inference}},
          {"post-inference", {b.post, m.post}},
          {"total", {b.total(), m.total}}};
      for (const auto& [phase, pair] : rows) {
        const auto& [sim, meas] = pair;
        const double e_err = 100 * (sim.energy_uj - meas.energy_uj) / meas.energy_uj;
        const double t_err = 100 * (sim.latency_us - meas.latency_us) / meas.latency_us;
        md += fmt::format("| {} | {}{} | {} | {:.1f} | {:.1f} | {:+.1f}% | {:.1f} | {:.1f} | {:+.1f}% |\n", model,
                          p.name, prediction ? " (prediction)" : "", phase, sim.energy_uj, meas.energy_uj, e_err,
                          sim.latency_us, meas.latency_us, t_err);
        csv += fmt::format("{},{},{},{:.6g},{},{:.6g},{}\n", model, p.name, phase, sim.energy_uj, meas.energy_uj,
                           sim.latency_us, meas.latency_us);
        if (std::string(phase) != "total") {
          squared[prediction][0] += e_err * e_err;
          squared[prediction][1] += t_err * t_err;
          ++count[prediction];
        }
      }
    }
  }
  std::cout << md;
  for (int prediction : {0, 1}) {
    if (count[prediction] == 0) continue;
    std::cout << fmt::format("{}: RMS error per phase, energy {:.1f}%, latency {:.1f}% over {} phases\n",
                             prediction ? "predicted points" : "reference point (fitted)",
                             std::sqrt(squared[prediction][0] / count[prediction]),
                             std::sqrt(squared[prediction][1] / count[prediction]), count[prediction]);
  }
  if (!o.out_dir.empty()) {
    std::filesystem::create_directories(o.out_dir);
    write_file_atomically(o.out_dir + "/against_measurements.md", md);
    write_file_atomically(o.out_dir + "/against_measurements.csv", csv);
  }
}

}  // namespace

void register_bench_phases_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand(
      "bench-phases", "STM32N6-style phase benchmark: pre-inference, inference, post-inference (Bartoli et al.)");
  auto o = std::make_shared<BenchOptions>();
  command->add_option("--config,-c", o->config_path, "MCU config with a `soc` section (configs/stm32n6.yaml)")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("--set", o->overrides, "Override a config key: key.path=value (repeatable)");
  command->add_option("--workload,-w", o->workload_path, "Workload YAML or ONNX")->check(CLI::ExistingFile);
  command->add_option("--point,-p", o->points, "Operating point (repeatable; two give rEDP)");
  command->add_option("--runs", o->runs, "Iterations in the traces")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  command->add_option("--out,-o", o->out_dir, "Output folder");
  command->add_flag("--calibrate", o->calibrate,
                    "Fit the soc cost model on the reference point's measurements and print it");
  command->add_flag("--against-measurements", o->against_measurements,
                    "Simulate the paper's four models at every point, beside Tables IV and V");
  command->callback([o] {
    const AcceleratorConfig config = load_accelerator_config(o->config_path, o->overrides);
    if (!config.soc) throw std::runtime_error(o->config_path + ": no `soc` section (see configs/stm32n6.yaml)");
    const EnergyTable table = load_energy_table(energy_table_path(config));
    if (o->calibrate) {
      const SocCalibration c =
          calibrate_soc(config, table, load_phase_measurements(measurements_path()), mlperf_tiny_workloads());
      std::cout << "# fitted on " << config.soc->reference_point << " (" << c.models.size() << " models):\n" << c.yaml;
      return;
    }
    if (o->against_measurements) return run_against_measurements(*o, config, table);
    if (o->workload_path.empty() || o->points.empty()) throw std::runtime_error("give --workload and --point");
    run_bench(*o, config, table);
  });
}

}  // namespace ergon
