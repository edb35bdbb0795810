// `ergon bench-phases`: the STM32N6 phase-resolved benchmark (docs/stm32n6.md).
#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands/cli_checks.hpp"
#include "cli/commands/commands.hpp"
#include "cli/commands/output.hpp"
#include "common/atomic_file.hpp"
#include "common/gnuplot.hpp"
#include "common/input_error.hpp"
#include "common/output_folder.hpp"
#include "sim/data_paths.hpp"
#include "studies/stm32n6/phase_calibration.hpp"

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
  std::string format = "table";
  SimulationChoice simulation;
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
      csv += fmt::format("{},{},{},{},{},{}\n", time_us, s.name, s.t1, s.t2, power_mw, energy_uj);
      time_us += s.us;
      energy_uj += s.uj;
      csv += fmt::format("{},{},{},{},{},{}\n", time_us, s.name, s.t1, s.t2, power_mw, energy_uj);
    }
  }
  vcd += fmt::format("#{}\n", std::llround(time_us * 1e3));
  write_file_atomically(dir + "/trace.vcd", vcd);
  write_file_atomically(dir + "/power_trace.csv", csv);
  write_file_atomically(dir + "/power_trace.gp",
                        fmt::format(R"gp(# Seed 001 Fig. 4-style trace: `gnuplot power_trace.gp`
set datafile separator ','
set title "STM32N6 at {0}, simulated: core-domain power and energy over {1} iteration(s)\n(each: pre-inference, inference, post-inference, idle)" noenhanced
set xlabel 'time (us)'
set ylabel 'core-domain power (mW)'
set y2label 'cumulative core-domain energy (uJ)'
set y2tics
set ytics nomirror
# Below the plot: the key never hides the trace. The triggers are logic levels, drawn at 20 and 10 mW.
set key below maxrows 2 noenhanced
set grid
do for [out in "png svg"] {{
  if (out eq "png") {{ set terminal pngcairo size 1000,560 font ',10'; set output 'power_trace.png' }}
  else {{ set terminal svg size 1000,560 font ',10'; set output 'power_trace.svg' }}
  plot 'power_trace.csv' every ::1 using 1:5 with lines lw 2 title 'core-domain power (left axis)', \
       '' every ::1 using 1:6 axes x1y2 with lines dt 2 lw 2 title 'cumulative energy (right axis)', \
       '' every ::1 using 1:($3*20) with steps title 'trigger 1: high in pre-inference and inference (level only)', \
       '' every ::1 using 1:($4*10) with steps title 'trigger 2: high in inference and post-inference (level only)'
}}
)gp",
                                    b.point, runs));
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

nlohmann::ordered_json bench_json(const Workload& workload, const AcceleratorConfig& config,
                                  const std::vector<PhaseBreakdown>& results, const SimulationChoice& simulation) {
  nlohmann::ordered_json json = {{"schema_version", 1},
                                 {"workload", workload.name()},
                                 {"config", config.name},
                                 {"fidelity", simulation.fidelity},
                                 {"batch", simulation.batch > 0 ? nlohmann::ordered_json(simulation.batch) : nullptr}};
  for (const PhaseBreakdown& b : results) {
    json["points"][b.point] = {{"pre_inference", measure_json(b.pre)},
                               {"inference", measure_json(b.inference)},
                               {"post_inference", measure_json(b.post)},
                               {"total", measure_json(b.total())},
                               {"input_bytes", b.input_bytes},
                               {"outputs", b.outputs},
                               {"npu_layers", b.npu_layers},
                               {"npu_simulated_us", b.npu_simulated_us},
                               {"npu_simulated_energy_uj", b.npu_simulated_energy_uj},
                               {"cpu_phase_power_mw", b.cpu_phase_power_mw},
                               {"static_power_mw", b.static_power_mw}};
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
  return json;
}

std::string bench_csv(const std::vector<PhaseBreakdown>& results) {
  std::string csv = "point,phase,energy_uj,latency_us,edp_js\n";
  for (const PhaseBreakdown& b : results) {
    const std::pair<const char*, PhaseMeasure> rows[] = {
        {"pre-inference", b.pre}, {"inference", b.inference}, {"post-inference", b.post}, {"total", b.total()}};
    for (const auto& [name, m] : rows) {
      csv += fmt::format("{},{},{},{},{}\n", b.point, name, m.energy_uj, m.latency_us, m.edp_js());
    }
  }
  return csv;
}

// `out`: the staged --out folder, or null.
void run_bench(const BenchOptions& o, const AcceleratorConfig& config, const EnergyTable& table, OutputFolder* out) {
  Workload workload = load_workload(o.workload_path);
  apply_batch(o.simulation, workload);
  refuse_workload_without_work(workload);
  std::vector<PhaseBreakdown> results;
  const Fidelity fidelity = parse_fidelity(o.simulation.fidelity);
  for (const std::string& point : o.points)
    results.push_back(run_phase_benchmark(config, table, workload, point, fidelity));
  const ReportForms forms{phase_table(workload.name() + " on " + config.name + " (simulated, per iteration)", results),
                          bench_json(workload, config, results, o.simulation).dump(2) + "\n", bench_csv(results)};
  if (!out) return print_report(forms, o.format);
  for (const PhaseBreakdown& b : results) {
    const std::string dir = out->staged(b.point);
    std::filesystem::create_directories(dir);
    const double idle_mw = b.pre.latency_us > 0 ? b.pre.energy_uj / b.pre.latency_us * 1e3 * 0.1 : 0;
    write_traces(b, o.runs, soc_of(config).idle_us, idle_mw, dir);
  }
  write_file_atomically(out->staged("phases.json"), forms.json);
  write_file_atomically(out->staged("phases_summary.csv"), forms.csv);
  out->commit();
  print_report(forms, o.format);  // after the files: a reader that stops early cannot cost them
  note_written(o.out_dir, {"phases.json", "phases_summary.csv", "<point>/{trace.vcd,power_trace.csv,power_trace.gp}"});
}

// The four models' NPU simulations at every point (shared by calibration, LOMO and predictions).
std::map<std::string, ModelRuns> simulate_mlperf_tiny(const AcceleratorConfig& config, const EnergyTable& table,
                                                      Fidelity fidelity) {
  std::map<std::string, ModelRuns> runs;
  for (const auto& [model, path] : mlperf_tiny_workloads())
    runs[model] = simulate_model(config, table, load_workload(path), fidelity);
  return runs;
}

struct ModelPrediction {
  std::map<std::string, PhaseBreakdown> in_sample, lomo;  // by point
};

// In-sample: the config's fitted values (fitted on all models at the reference point). LOMO: refitted
// without the model, then applied to it. Other points are predictions either way.
std::map<std::string, ModelPrediction> predict_models(const AcceleratorConfig& config, const EnergyTable& table,
                                                      const PhaseMeasurements& measured,
                                                      const std::map<std::string, ModelRuns>& runs) {
  std::map<std::string, ModelPrediction> out;
  for (const auto& [model, model_runs] : runs) {
    AcceleratorConfig lomo = config;
    soc_of(lomo) = calibrate_soc(config, table, measured, runs, model).fitted;
    for (const auto& [point, npu] : model_runs.runs) {
      out[model].in_sample[point] = phase_breakdown(config, table, model_runs.shape, npu);
      out[model].lomo[point] = phase_breakdown(lomo, table, model_runs.shape, npu);
    }
  }
  return out;
}

double error_pct(double sim, double meas) {
  return 100 * (sim - meas) / meas;
}

struct ErrorSums {
  double squared[2] = {};  // energy, latency
  int count = 0;
  void add(double e_err, double t_err) {
    squared[0] += e_err * e_err;
    squared[1] += t_err * t_err;
    ++count;
  }
  std::string text() const {
    return count ? fmt::format("energy {:.1f}%, latency {:.1f}% over {} phases", std::sqrt(squared[0] / count),
                               std::sqrt(squared[1] / count), count)
                 : "no phases";
  }
};

using PhaseRows = std::array<std::pair<const char*, std::pair<PhaseMeasure, PhaseMeasure>>, 4>;
PhaseRows phase_rows(const PhaseBreakdown& b, const MeasuredPhases& m) {
  return {{{"pre-inference", {b.pre, m.pre}},
           {"inference", {b.inference, m.inference}},
           {"post-inference", {b.post, m.post}},
           {"total", {b.total(), m.total}}}};
}

// Per model: L/H ratios and rEDP, simulated against measured (Tables IV and VI), for the two first points.
std::string ratio_table(const std::map<std::string, ModelPrediction>& predictions, const PhaseMeasurements& measured,
                        const std::string& h, const std::string& l, int* signs_right, int* signs_total) {
  std::string md = fmt::format(
      "| model | E {0}/{1} total sim / meas | E inference sim / meas | E pre sim / meas | rEDP pre sim / meas | "
      "rEDP inference | rEDP post | rEDP total | E total {0} error in-sample / LOMO |\n"
      "|---|---|---|---|---|---|---|---|---|\n",
      l, h);
  for (const auto& [model, p] : predictions) {
    const auto found = measured.find(model);
    if (found == measured.end() || !found->second.count(h) || !found->second.count(l)) continue;
    const MeasuredPhases &mh = found->second.at(h), &ml = found->second.at(l);
    const PhaseBreakdown &sh = p.in_sample.at(h), &sl = p.in_sample.at(l);
    md += fmt::format("| {} | {:.3f} / {:.3f} | {:.3f} / {:.3f} | {:.3f} / {:.3f} |", model,
                      sl.total().energy_uj / sh.total().energy_uj, ml.total.energy_uj / mh.total.energy_uj,
                      sl.inference.energy_uj / sh.inference.energy_uj, ml.inference.energy_uj / mh.inference.energy_uj,
                      sl.pre.energy_uj / sh.pre.energy_uj, ml.pre.energy_uj / mh.pre.energy_uj);
    const PhaseRows rh = phase_rows(sh, mh), rl = phase_rows(sl, ml);
    for (int i = 0; i < 4; ++i) {
      const double rs = relative_edp_pct(rh[i].second.first, rl[i].second.first);
      const double rm = relative_edp_pct(rh[i].second.second, rl[i].second.second);
      const bool right = (rs > 0) == (rm > 0);
      *signs_right += right ? 1 : 0;
      ++*signs_total;
      md += fmt::format(" {:+.1f} / {:+.1f} %{} |", rs, rm, right ? "" : " (sign wrong)");
    }
    md += fmt::format(" {:+.1f}% / {:+.1f}% |\n", error_pct(sl.total().energy_uj, ml.total.energy_uj),
                      error_pct(p.lomo.at(l).total().energy_uj, ml.total.energy_uj));
  }
  return md;
}

// Fig. 5 and Fig. 6 of the paper, simulated beside measured: phases.csv feeds both gnuplot scripts.
void write_figures(const std::map<std::string, ModelPrediction>& predictions, const PhaseMeasurements& measured,
                   const std::string& h, const std::string& l, const std::string& dir) {
  std::string csv =
      "label,h_meas_us,h_sim_us,l_meas_us,l_sim_us,h_meas_uj,h_sim_uj,l_meas_uj,l_sim_uj,"
      "nedp_meas,nedp_sim\n";
  const char* short_phase[] = {"pre", "inf", "post", "total"};
  for (const auto& [model, p] : predictions) {
    const auto found = measured.find(model);
    if (found == measured.end() || !found->second.count(h) || !found->second.count(l)) continue;
    const PhaseRows rh = phase_rows(p.in_sample.at(h), found->second.at(h));
    const PhaseRows rl = phase_rows(p.in_sample.at(l), found->second.at(l));
    for (int i = 0; i < 4; ++i) {
      const auto& [sh, mh] = rh[i].second;
      const auto& [sl, ml] = rl[i].second;
      csv += fmt::format("{} {},{},{},{},{},{},{},{},{},{},{}\n", model, short_phase[i], mh.latency_us, sh.latency_us,
                         ml.latency_us, sl.latency_us, mh.energy_uj, sh.energy_uj, ml.energy_uj, sl.energy_uj,
                         ml.edp_js() / mh.edp_js(), sl.edp_js() / sh.edp_js());
    }
  }
  write_file_atomically(dir + "/phases.csv", csv);
  const std::string common = R"(set datafile separator ','
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics rotate by -45 font ',8'
set xlabel 'model and phase (pre: pre-inference, inf: inference, post: post-inference, total: the three)'
set grid ytics
# Headroom above the tallest bar for the key, which then never hides a bar.
set yrange [0:*]
set offsets 0, 0, graph 0.2, 0
set key top left
)";
  write_file_atomically(dir + "/fig5_phases.gp",
                        "# Seed 001 Fig. 5-style bars, simulated beside measured: `gnuplot fig5_phases.gp`\n" + common +
                            fmt::format(R"(do for [out in "png svg"] {{
  if (out eq "png") {{ set terminal pngcairo noenhanced size 1400,900 font ',10'; set output 'fig5_phases.png' }}
  else {{ set terminal svg noenhanced size 1400,900 font ',10'; set output 'fig5_phases.svg' }}
  set multiplot layout 2,1 title 'STM32N6 per-phase latency and core-domain energy of the MLPerf Tiny models at operating points {0} and {1}: measured (Bartoli et al., Tables IV-V) and simulated'
  set ylabel 'latency (us)'
  set title '(a) latency per phase'
  plot 'phases.csv' every ::1 using 2:xtic(1) title '{0}, measured', '' every ::1 using 3 title '{0}, simulated', \
       '' every ::1 using 4 title '{1}, measured', '' every ::1 using 5 title '{1}, simulated'
  set ylabel 'core-domain energy (uJ)'
  set title '(b) energy per phase'
  plot 'phases.csv' every ::1 using 6:xtic(1) title '{0}, measured', '' every ::1 using 7 title '{0}, simulated', \
       '' every ::1 using 8 title '{1}, measured', '' every ::1 using 9 title '{1}, simulated'
  unset multiplot
}}
)",
                                        h, l));
  write_file_atomically(dir + "/fig6_edp.gp",
                        "# Seed 001 Fig. 6-style normalised EDP, simulated beside measured: `gnuplot fig6_edp.gp`\n" +
                            common +
                            fmt::format(R"(set ylabel 'energy-delay product at {1} / at {0} (ratio)'
set yrange [0:1.3]
set title 'STM32N6 energy-delay product per phase at {1}, normalised to {0}: measured (Bartoli et al., Table VI) and simulated'
do for [out in "png svg"] {{
  if (out eq "png") {{ set terminal pngcairo noenhanced size 1200,600 font ',10'; set output 'fig6_edp.png' }}
  else {{ set terminal svg noenhanced size 1200,600 font ',10'; set output 'fig6_edp.svg' }}
  plot 'phases.csv' every ::1 using 10:xtic(1) title 'measured (Bartoli et al.)', '' every ::1 using 11 title 'simulated', \
       1 with lines dt 2 lc rgb 'black' title '{0} (ratio 1): below it, {1} is better'
}}
)",
                                        h, l));
  run_gnuplot(dir, "fig5_phases.gp");
  run_gnuplot(dir, "fig6_edp.gp");
}

// Simulated against measured (Tables IV-VI), per model, point and phase, in-sample and leave-one-model-out.
void run_against_measurements(const BenchOptions& o, const AcceleratorConfig& config, const EnergyTable& table,
                              OutputFolder* out) {
  const PhaseMeasurements measured = load_phase_measurements(measurements_path());
  const std::map<std::string, ModelPrediction> predictions = predict_models(
      config, table, measured, simulate_mlperf_tiny(config, table, parse_fidelity(o.simulation.fidelity)));
  std::string md =
      "| model | point | phase | energy uJ sim | measured | error | LOMO error | latency us sim | measured | error | "
      "LOMO error |\n|---|---|---|---|---|---|---|---|---|---|---|\n";
  std::string csv =
      "model,point,phase,energy_uj,lomo_energy_uj,measured_energy_uj,latency_us,lomo_latency_us,"
      "measured_latency_us\n";
  nlohmann::ordered_json rows_json = nlohmann::ordered_json::array();
  ErrorSums errors[2][2];  // [prediction?][LOMO?]
  for (const auto& [model, p] : predictions) {
    for (const SocOperatingPoint& point : soc_of(config).operating_points) {
      const auto found = measured.find(model);
      if (found == measured.end() || found->second.count(point.name) == 0) continue;
      const bool prediction = point.name != soc_of(config).reference_point;
      const PhaseRows rows = phase_rows(p.in_sample.at(point.name), found->second.at(point.name));
      const PhaseRows lomo = phase_rows(p.lomo.at(point.name), found->second.at(point.name));
      for (int i = 0; i < 4; ++i) {
        const auto& [sim, meas] = rows[i].second;
        const PhaseMeasure& lomo_out = lomo[i].second.first;
        const double e_err = error_pct(sim.energy_uj, meas.energy_uj),
                     t_err = error_pct(sim.latency_us, meas.latency_us);
        const double e_lomo = error_pct(lomo_out.energy_uj, meas.energy_uj),
                     t_lomo = error_pct(lomo_out.latency_us, meas.latency_us);
        md += fmt::format(
            "| {} | {}{} | {} | {:.1f} | {:.1f} | {:+.1f}% | {:+.1f}% | {:.1f} | {:.1f} | {:+.1f}% | {:+.1f}% |\n",
            model, point.name, prediction ? " (prediction)" : "", rows[i].first, sim.energy_uj, meas.energy_uj, e_err,
            e_lomo, sim.latency_us, meas.latency_us, t_err, t_lomo);
        csv += fmt::format("{},{},{},{},{},{},{},{},{}\n", model, point.name, rows[i].first, sim.energy_uj,
                           lomo_out.energy_uj, meas.energy_uj, sim.latency_us, lomo_out.latency_us, meas.latency_us);
        rows_json.push_back({{"model", model},
                             {"point", point.name},
                             {"phase", rows[i].first},
                             {"prediction", prediction},
                             {"energy_uj", sim.energy_uj},
                             {"lomo_energy_uj", lomo_out.energy_uj},
                             {"measured_energy_uj", meas.energy_uj},
                             {"latency_us", sim.latency_us},
                             {"lomo_latency_us", lomo_out.latency_us},
                             {"measured_latency_us", meas.latency_us}});
        if (i == 3) continue;  // RMS over phases, as before
        errors[prediction][0].add(e_err, t_err);
        errors[prediction][1].add(e_lomo, t_lomo);
      }
    }
  }
  std::string summary;
  for (int prediction : {0, 1}) {
    summary += fmt::format("{}: RMS error per phase, in-sample {}; leave-one-model-out {}\n",
                           prediction ? "predicted points" : "reference point (fitted)", errors[prediction][0].text(),
                           errors[prediction][1].text());
  }
  const auto& points = soc_of(config).operating_points;
  std::string ratios;
  if (points.size() >= 2) {
    const std::string& h = soc_of(config).reference_point;
    const std::string& l = points[0].name == h ? points[1].name : points[0].name;
    int right = 0, total = 0;
    ratios = ratio_table(predictions, measured, h, l, &right, &total);
    ratios += fmt::format("rEDP signs right: {} of {}\n", right, total);
    if (out) write_figures(predictions, measured, h, l, out->staging_folder());
  }
  const nlohmann::ordered_json json = {{"schema_version", 1}, {"config", config.name}, {"rows", rows_json}};
  const ReportForms forms{md + summary + (ratios.empty() ? "" : "\n" + ratios), json.dump(2) + "\n", csv,
                          md + (ratios.empty() ? "" : "\n" + ratios)};
  if (!out) return print_report(forms, o.format);
  write_file_atomically(out->staged("against_measurements.md"), forms.markdown);
  write_file_atomically(out->staged("against_measurements.csv"), csv);
  write_file_atomically(out->staged("against_measurements.json"), forms.json);
  const std::vector<std::string> written = out->commit();
  print_report(forms, o.format);
  note_written(o.out_dir, written);
}

}  // namespace

void register_bench_phases_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand(
      "bench-phases", "STM32N6-style phase benchmark: pre-inference, inference, post-inference (Bartoli et al.)");
  auto o = std::make_shared<BenchOptions>();
  command->footer("Example:\n  ergon bench-phases -c stm32n6 -w resnet8 --point h-perf --point l-perf");
  command->add_option("--config,-c", o->config_path, "MCU config with a `soc` section (configs/stm32n6.yaml)")
      ->required()
      ->transform(shipped_config());
  command->add_option("--set", o->overrides, "Override a config key: key.path=value (repeatable)");
  command->add_option("--workload,-w", o->workload_path, "Workload YAML or ONNX")->transform(shipped_workload());
  command->add_option("--point", o->points, "Operating point (repeatable; two give rEDP)");
  command->add_option("--runs", o->runs, "Iterations in the traces")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  command->add_option("--out,-o", o->out_dir,
                      "Also write into this folder: phases.json, phases_summary.csv and per point the traces; with "
                      "--against-measurements, against_measurements.{md,csv,json} and Figs. 5-6");
  add_format_option(*command, o->format);
  add_simulation_options(*command, o->simulation);
  add_progress_options(*command);
  command->add_flag("--calibrate", o->calibrate,
                    "Fit the soc cost model on the reference point's measurements and print it");
  command->add_flag("--against-measurements", o->against_measurements,
                    "Simulate the paper's four models at every point, beside Tables IV and V");
  command->callback([o] {
    if (o->calibrate && (o->format != "table" || !o->out_dir.empty())) {
      throw UsageError("--calibrate prints the fitted soc section as YAML; --format and --out do not apply to it");
    }
    if ((o->calibrate || o->against_measurements) && o->simulation.batch > 0) {
      throw UsageError(
          "--batch: the measurements of --calibrate and --against-measurements are one image per "
          "inference (Bartoli et al.); a batch applies to --workload's benchmark only");
    }
    if (!o->calibrate && !o->against_measurements && (o->workload_path.empty() || o->points.empty())) {
      throw UsageError("give --workload and --point (or --calibrate, or --against-measurements)");
    }
    std::optional<OutputFolder> out;  // staged: all or nothing (common/output_folder)
    if (!o->out_dir.empty()) {
      out.emplace(o->out_dir, "--out",
                  std::vector<std::string>{"phases.json", "phases_summary.csv", "against_measurements.md",
                                           "against_measurements.csv", "against_measurements.json", "phases.csv"},
                  std::vector<std::string>{o->config_path, o->workload_path});
    }
    const AcceleratorConfig config = load_accelerator_config(o->config_path, o->overrides);
    if (find_soc(config) == nullptr)
      throw std::runtime_error(o->config_path + ": no `soc` section (see configs/stm32n6.yaml)");
    if (out) out->add_inputs({energy_table_path(config)});
    const EnergyTable table = load_energy_table(energy_table_path(config));
    if (o->calibrate) {
      const SocCalibration c =
          calibrate_soc(config, table, load_phase_measurements(measurements_path()),
                        simulate_mlperf_tiny(config, table, parse_fidelity(o->simulation.fidelity)));
      std::cout << "# fitted on " << soc_of(config).reference_point << " (" << c.models.size() << " models):\n"
                << c.yaml;
      return;
    }
    if (o->against_measurements) return run_against_measurements(*o, config, table, out ? &*out : nullptr);
    run_bench(*o, config, table, out ? &*out : nullptr);
  });
}

ERGON_REGISTER(CliCommand, "bench-phases", CliCommand{register_bench_phases_command}, 110)

}  // namespace ergon
