#include "studies/lahmer/lahmer_fit_run.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "common/atomic_file.hpp"
#include "common/gnuplot.hpp"
#include "common/output_paths.hpp"
#include "power/estimators/lahmer_report.hpp"
#include "sim/parallel/process_pool.hpp"
#include "sim/simulation.hpp"
#include "studies/blackthorn/ergon_latency_backend.hpp"

namespace ergon {
namespace {

LahmerSweepPoint conv_point(const std::string& sweep, int i_size, int ifm, int ofm, int ksize, int stride) {
  LahmerSweepPoint p;
  p.sweep = sweep;
  p.i_size = i_size;
  p.ifm = ifm;
  p.ofm = ofm;
  p.ksize = ksize;
  p.stride = stride;
  p.load = kernel_conv_load({static_cast<double>(i_size), static_cast<double>(i_size), static_cast<double>(ifm),
                             static_cast<double>(ofm), static_cast<double>(ksize), static_cast<double>(ksize),
                             static_cast<double>(stride), static_cast<double>(stride)},
                            KclcForm::kExact);
  return p;
}

// The point as a layer: a valid convolution (no padding, as eq. 2 assumes) or a fully connected layer, reading
// the network's input.
blackthorn::LayerSpec layer_of(const LahmerSweepPoint& p) {
  blackthorn::LayerSpec layer;
  if (p.fully_connected) {
    layer.kind = blackthorn::LayerKind::kFullyConnected;
    layer.inputs = p.fc_inputs;
    layer.outputs = p.fc_outputs;
  } else {
    layer.kind = blackthorn::LayerKind::kConv;
    layer.channels = p.ifm;
    layer.height = layer.width = p.i_size;
    layer.filters = p.ofm;
    layer.kernel = p.ksize;
    layer.stride = p.stride;
  }
  return layer;
}

// Per image, as the model's loads count one image's MACs: the layer's energy for its batch over the batch.
double simulate_layer_energy_j(const AcceleratorConfig& config, const EnergyTable& table,
                               const SimulationOptions& simulation, const LahmerSweepPoint& p) {
  const Workload workload = parse_workload(single_layer_yaml(layer_of(p), true), "generated " + p.sweep + " layer");
  const LayerResult layer = simulate_in_worker(config, table, workload, simulation).layers.at(1);
  return layer.energy.total_pj() * 1e-12 / static_cast<double>(layer.batch);
}

double model_energy_j(const LahmerFit& fit, const LahmerSweepPoint& p) {
  return p.fully_connected ? p.load * fit.a_f : p.load * (fit.a_c + fit.b_c * p.ofm);
}

std::string samples_csv(const LahmerFitRun& run) {
  std::string out =
      "sweep,fully_connected,i_size,ifm,ofm,ksize,stride,fc_inputs,fc_outputs,load,energy_j,model_energy_j,"
      "error_pct\n";
  for (const LahmerSweepPoint& p : run.points) {
    const double model = model_energy_j(run.fit, p);
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{}\n", p.sweep, p.fully_connected ? 1 : 0, p.i_size, p.ifm,
                       p.ofm, p.ksize, p.stride, p.fc_inputs, p.fc_outputs, p.load, p.energy_j, model,
                       100 * (model - p.energy_j) / p.energy_j);
  }
  return out;
}

nlohmann::ordered_json fit_json(const LahmerFitRun& run) {
  const LahmerFit& fit = run.fit;
  const auto scores = [](const LeastSquaresFit& f) {
    return nlohmann::ordered_json{{"r_squared", f.r_squared}, {"mape_pct", f.mape_pct}, {"samples", f.samples}};
  };
  nlohmann::ordered_json slopes = nlohmann::ordered_json::array();
  for (const LahmerSlope& s : fit.slopes) slopes.push_back({{"ofm", s.ofm}, {"slope_j_per_mac", s.slope_j_per_mac}});
  return {{"schema_version", 1},
          {"config", run.config_name},
          {"batch", run.batch},  // the energies (and so the parameters) are per image at this batch
          {"fidelity", run.fidelity},
          {"a_c", fit.a_c},
          {"b_c", fit.b_c},
          {"a_f", fit.a_f},
          {"conv", scores(fit.conv_fit)},
          {"fc", scores(fit.fc_fit)},
          {"eq6_slopes", scores(fit.slope_fit)},
          {"slopes", slopes}};
}

// Fig. 3: energy against CLC, one series per ofm, with the model's lines; Fig. 5: the slopes against ofm
// with eq. 6's curve; and the FC line (Fig. 4).
void write_plots(const LahmerFitRun& run, const std::string& out_dir) {
  const std::string& config_name = run.config_name;
  std::map<int, std::string> by_ofm;
  std::string fc_data = "# clf energy_j model_j\n";
  for (const LahmerSweepPoint& p : run.points) {
    if (p.fully_connected) {
      fc_data += fmt::format("{:.0f} {:.6g} {:.6g}\n", p.load, p.energy_j, model_energy_j(run.fit, p));
    } else if (p.sweep == "ofm") {
      by_ofm[p.ofm] += fmt::format("{:.0f} {:.6g} {:.6g}\n", p.load * p.ofm, p.energy_j, model_energy_j(run.fit, p));
    }
  }
  std::string conv_data, titles;
  for (const auto& [ofm, rows] : by_ofm) {
    conv_data += fmt::format("# ofm {}\n{}\n\n", ofm, rows);
    titles += fmt::format("{} ", ofm);
  }
  std::string slope_data = "# ofm slope_j_per_mac\n";
  for (const LahmerSlope& s : run.fit.slopes) slope_data += fmt::format("{} {:.6g}\n", s.ofm, s.slope_j_per_mac);
  write_file_atomically(out_dir + "/energy_vs_clc.dat", conv_data);
  write_file_atomically(out_dir + "/slope_vs_ofm.dat", slope_data);
  write_file_atomically(out_dir + "/fc_energy.dat", fc_data);
  write_file_atomically(
      out_dir + "/lahmer_fit.gp",
      fmt::format(R"gp(# Lahmer et al. Fig. 3, 5 and 4 for the simulated accelerator: `gnuplot lahmer_fit.gp`
ofms = "{0}"
set grid
set format y '%g'
do for [out in "png svg"] {{
  ext = out
  if (out eq "png") {{ set terminal pngcairo noenhanced size 900,600 font ',10' }}
  else {{ set terminal svg noenhanced size 900,600 font ',10' }}
  set output 'energy_vs_clc.'.ext
  set logscale xy
  set key top left
  set xlabel 'conv layer complexity CLC = KCLC x output maps (MACs)'; set ylabel 'simulated energy per layer and image (J)'
  set title {3}
  plot for [i=1:words(ofms)] 'energy_vs_clc.dat' index i-1 using 1:2 with points pt 7 lc i \
         title sprintf('%s output maps, simulated', word(ofms, i)), \
       for [i=1:words(ofms)] 'energy_vs_clc.dat' index i-1 using 1:3 with lines lc i notitle, \
       keyentry with lines lc rgb 'black' title 'fitted model (eq. 7), in the colour of its points'
  set output 'slope_vs_ofm.'.ext
  set logscale x; unset logscale y
  set key top right
  set xlabel 'output feature maps, ofm'; set ylabel 'slope dE/dCLC (J per MAC)'
  set title {4}
  plot 'slope_vs_ofm.dat' using 1:2 with points pt 7 title 'slope fitted to each output-map count', \
       {1:.6g}/x + {2:.6g} title 'eq. 6: a_c / ofm + b_c'
  set output 'fc_energy.'.ext
  set logscale xy
  set key top left
  set xlabel 'fully connected layer complexity CLF = inputs x outputs (MACs)'; set ylabel 'simulated energy per layer and image (J)'
  set title {5}
  plot 'fc_energy.dat' using 1:2 with points pt 7 title 'simulated fully connected layer', \
       'fc_energy.dat' using 1:3 with lines title 'fitted model: a_f x CLF'
}}
)gp",
                  titles, run.fit.a_c, run.fit.b_c,
                  gnuplot_string("Lahmer et al.'s model on " + config_name +
                                 ": conv layer energy against CLC, per output-map count (Fig. 3)"),
                  gnuplot_string("Lahmer et al.'s model on " + config_name +
                                 ": energy per MAC against output maps (Fig. 5, eq. 6)"),
                  gnuplot_string("Lahmer et al.'s model on " + config_name +
                                 ": fully connected layer energy against CLF (Fig. 4)")));
}

}  // namespace

std::vector<LahmerSweepPoint> lahmer_sweep_points() {
  std::vector<LahmerSweepPoint> points;
  const int i_size = 56, ifm = 64, ksize = 3, stride = 1;  // the base layer each sweep varies
  for (int ofm : {32, 128}) {                              // Fig. 2: each sweep at two ofm values
    for (int k : {1, 3, 5, 7, 9, 11}) points.push_back(conv_point("ksize", i_size, ifm, ofm, k, stride));
    for (int s : {1, 2, 3, 4}) points.push_back(conv_point("stride", i_size, ifm, ofm, ksize, s));
    for (int c : {16, 32, 64, 128, 256}) points.push_back(conv_point("ifm", i_size, c, ofm, ksize, stride));
    for (int size : {14, 28, 56, 112, 224}) points.push_back(conv_point("i_size", size, ifm, ofm, ksize, stride));
  }
  for (int ofm : {8, 16, 32, 64, 128, 256, 512}) {  // Fig. 3: CLC varied at each ofm
    for (int size : {14, 28, 56, 112}) points.push_back(conv_point("ofm", size, ifm, ofm, ksize, stride));
  }
  for (int inputs : {256, 1024, 4096, 9216}) {  // Fig. 4
    for (int outputs : {128, 1024, 4096}) {
      LahmerSweepPoint p;
      p.sweep = "fc";
      p.fully_connected = true;
      p.fc_inputs = inputs;
      p.fc_outputs = outputs;
      p.load = static_cast<double>(inputs) * outputs;  // CLF, eq. 1
      points.push_back(p);
    }
  }
  return points;
}

LahmerFitRun run_lahmer_fit(const AcceleratorConfig& config, const EnergyTable& table,
                            const SimulationOptions& simulation, unsigned jobs) {
  LahmerFitRun run;
  run.config_name = config.name;
  run.batch = simulation.batch.value_or(1);
  run.fidelity = fidelity_name(simulation.fidelity);
  run.points = lahmer_sweep_points();
  run_in_processes(
      run.points.size(), jobs,
      [&](std::size_t i) {
        return fmt::format("{:.17g}", simulate_layer_energy_j(config, table, simulation, run.points[i]));
      },
      [&](std::size_t i, const std::string& energy) { run.points[i].energy_j = std::stod(energy); },
      "layers simulated for the fit");
  std::vector<LahmerConvSample> conv;
  std::vector<LahmerFcSample> fc;
  for (const LahmerSweepPoint& p : run.points) {
    if (p.fully_connected) {
      fc.push_back({p.load, p.energy_j});
    } else {
      conv.push_back({p.load, static_cast<double>(p.ofm), p.energy_j});
    }
  }
  run.fit = fit_lahmer(conv, fc);
  return run;
}

namespace {

std::string fit_heading(const LahmerFitRun& run) {
  return fmt::format("Lahmer et al.'s model fitted to {} simulated layers of {} ({}, batch {}; energy per image):\n",
                     run.points.size(), run.config_name, run.fidelity, run.batch);
}

// The summary as a markdown table: a row per fit, its parameters and scores.
std::string fit_markdown(const LahmerFitRun& run) {
  const LahmerFit& f = run.fit;
  const std::string csv = fmt::format(
      "fit,a_c (J per KCLC MAC),b_c (J per MAC),a_f (J per MAC),R^2,MAPE (%),samples\n"
      "conv (eq. 7),{},{},,{},{},{}\n"
      "eq. 6 on the per-ofm slopes,,,,{},{},{}\n"
      "fc (eq. 8),,,{},{},{},{}\n",
      f.a_c, f.b_c, f.conv_fit.r_squared, f.conv_fit.mape_pct, f.conv_fit.samples, f.slope_fit.r_squared,
      f.slope_fit.mape_pct, f.slope_fit.samples, f.a_f, f.fc_fit.r_squared, f.fc_fit.mape_pct, f.fc_fit.samples);
  return fit_heading(run) + "\n" + csv_as_markdown(csv);
}

}  // namespace

ReportForms lahmer_fit_forms(const LahmerFitRun& run) {
  const LahmerFit& f = run.fit;
  const std::string table =
      fit_heading(run) +
      fmt::format(
          "  conv: a_c = {:.4g} J per KCLC MAC, b_c = {:.4g} J per MAC; R^2 {:.4f}, MAPE {:.2f}% over {} layers\n"
          "        (eq. 6 on the {} per-ofm slopes: R^2 {:.4f})\n"
          "  fc:   a_f = {:.4g} J/MAC; R^2 {:.4f}, MAPE {:.2f}% over {} layers\n",
          f.a_c, f.b_c, f.conv_fit.r_squared, f.conv_fit.mape_pct, f.conv_fit.samples, f.slopes.size(),
          f.slope_fit.r_squared, f.a_f, f.fc_fit.r_squared, f.fc_fit.mape_pct, f.fc_fit.samples);
  return {table, fit_json(run).dump(2) + "\n", samples_csv(run), fit_markdown(run)};
}

std::string write_lahmer_fit(const LahmerFitRun& run, const ReportForms& forms, const std::string& out_dir,
                             bool plots) {
  std::filesystem::create_directories(out_dir);
  write_file_atomically(out_dir + "/samples.csv", forms.csv);
  write_file_atomically(out_dir + "/fit.json", forms.json);
  if (!plots) return "";
  write_plots(run, out_dir);
  return run_gnuplot(out_dir, "lahmer_fit.gp") ? "" : " (install gnuplot for the plots)";
}

namespace {

// Why the fitted parameters cannot be used, or "" when they can.
std::string unusable_parameters(const LahmerMeasuredFit& f) {
  std::string why;
  if (!(f.fit.a_c > 0)) why += fmt::format(" a_c = {:.4g} is not positive;", f.fit.a_c);
  if (!(f.fit.b_c >= 0)) why += fmt::format(" b_c = {:.4g} is negative;", f.fit.b_c);
  if (f.has_fc && !(f.fit.a_f > 0)) why += fmt::format(" a_f = {:.4g} is not positive;", f.fit.a_f);
  return why;
}

// The summary's lines on the conv and eq. 6 fits, and on the fc fit.
std::string measured_fit_lines(const LahmerMeasuredFit& fit) {
  const LahmerFit& f = fit.fit;
  std::string lines = fmt::format(
      "  conv: a_c = {:.6g} J per KCLC MAC, b_c = {:.6g} J per MAC; R^2 {:.4f}, RMSPE {:.2f}% over {} rows\n"
      "        (eq. 6 on the {} per-ofm slopes: R^2 {:.4f})\n",
      f.a_c, f.b_c, f.conv_fit.r_squared, fit.conv_rmspe_pct, fit.conv_rows, f.slopes.size(), f.slope_fit.r_squared);
  return lines + (fit.has_fc ? fmt::format("  fc:   a_f = {:.6g} J/MAC; R^2 {:.4f}, RMSPE {:.2f}% over {} rows\n",
                                           f.a_f, f.fc_fit.r_squared, fit.fc_rmspe_pct, fit.fc_rows)
                             : "  fc:   no fc rows, so no a_f (FC layers will not be modelled)\n");
}

std::string measured_fit_heading(const LahmerMeasuredFit& fit) {
  return fmt::format("Lahmer et al.'s model fitted to {} measured layers in {} ({}):\n", fit.residuals.size(),
                     fit.measurements_path, kclc_description(fit.kclc));
}

// The summary as a markdown table: a row per fit, its parameters and scores (no fc row without fc rows).
std::string measured_fit_markdown(const LahmerMeasuredFit& fit) {
  const LahmerFit& f = fit.fit;
  std::string csv = fmt::format(
      "fit,a_c (J per KCLC MAC),b_c (J per MAC),a_f (J per MAC),R^2,RMSPE (%),rows\n"
      "conv (eq. 7),{},{},,{},{},{}\n"
      "eq. 6 on the per-ofm slopes,,,,{},,{}\n",
      f.a_c, f.b_c, f.conv_fit.r_squared, fit.conv_rmspe_pct, fit.conv_rows, f.slope_fit.r_squared, f.slopes.size());
  if (fit.has_fc)
    csv += fmt::format("fc (eq. 8),,,{},{},{},{}\n", f.a_f, f.fc_fit.r_squared, fit.fc_rmspe_pct, fit.fc_rows);
  return measured_fit_heading(fit) + "\n" + csv_as_markdown(csv);
}

}  // namespace

ReportForms lahmer_measured_fit_forms(const LahmerMeasuredFit& fit, const std::string& board) {
  return {measured_fit_heading(fit) + measured_fit_lines(fit), lahmer_measured_fit_json(fit, board).dump(2) + "\n",
          lahmer_residuals_csv(fit), measured_fit_markdown(fit)};
}

void write_lahmer_measured_fit(const LahmerMeasuredFit& fit, const ReportForms& forms, const std::string& out_dir,
                               const std::string& board) {
  std::filesystem::create_directories(out_dir);
  write_file_atomically(out_dir + "/fit.json", forms.json);
  write_file_atomically(out_dir + "/residuals.csv", forms.csv);
  const std::string unusable = unusable_parameters(fit);
  if (!unusable.empty()) {
    throw std::runtime_error(fmt::format(
        "{}: the measurements do not follow Lahmer et al.'s model:{} conv RMSPE {:.1f}% over {} rows; nothing was "
        "written",
        fit.measurements_path, unusable, fit.conv_rmspe_pct, fit.conv_rows));
  }
  write_file_atomically(out_dir + "/parameters.yaml", lahmer_parameters_yaml(fit, board));
}

std::string lahmer_parameters_use(const LahmerMeasuredFit& fit, const std::string& parameters_path,
                                  const std::string& board) {
  return fmt::format("; use: ergon estimate lahmer --parameters {} --board {} --kclc {} --kclc-padding {}",
                     parameters_path, board, kclc_form_name(fit.kclc.form), kclc_padding_name(fit.kclc.padding));
}

}  // namespace ergon
