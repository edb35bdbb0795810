#include "power/estimators/lahmer_report.hpp"

#include <fmt/format.h>

#include "common/text.hpp"

namespace ergon {
namespace {

std::string heading(const LahmerEstimate& e) {
  return fmt::format("Lahmer et al. estimate of {} on {} ({}; {}); energy per image in mJ", e.workload, e.board.name,
                     kclc_description(e.kclc), e.board.source);
}

// Parameters fitted with one KCLC form price layers correctly only with that form.
std::string form_mismatch_warning(const LahmerEstimate& e) {
  const std::string form = kclc_form_name(e.kclc.form), padding = kclc_padding_name(e.kclc.padding);
  const bool form_differs = !e.board.fitted_kclc.empty() && e.board.fitted_kclc != form;
  const bool padding_differs = !e.board.fitted_kclc_padding.empty() && e.board.fitted_kclc_padding != padding;
  if (!form_differs && !padding_differs) return "";
  return fmt::format("WARNING: the parameters were fitted with --kclc {} --kclc-padding {}; this estimate uses {} {}\n",
                     e.board.fitted_kclc.empty() ? "?" : e.board.fitted_kclc,
                     e.board.fitted_kclc_padding.empty() ? "?" : e.board.fitted_kclc_padding, form, padding);
}

std::string partial_warning(const LahmerEstimate& e) {
  if (e.unmodelled_compute_layers == 0) return "";
  return fmt::format("PARTIAL: {} conv/FC layers have no parameters on {} and count no energy\n",
                     e.unmodelled_compute_layers, e.board.name);
}

}  // namespace

std::string lahmer_table(const LahmerEstimate& estimate) {
  std::string out = heading(estimate) + "\n";
  const auto row = [](const auto&... cells) { return fmt::format("{:<28} {:<8} {:>16} {:>8} {:>12}\n", cells...); };
  out += row("layer", "op", "KCLC or CLF", "ofm", "energy mJ");
  std::string not_modelled;
  for (const auto& layer : estimate.layers) {
    if (!layer.modelled) {
      if (layer.op != "input") not_modelled += fmt::format("  {} ({}): {}\n", layer.name, layer.op, layer.note);
      continue;
    }
    out += row(layer.name, layer.op, fmt::format("{:.0f}", layer.load), fmt::format("{:.0f}", layer.ofm),
               fmt::format("{:.4f}", layer.energy_j * 1e3));
  }
  out += row("total", "", "", "", fmt::format("{:.4f}", estimate.total_j * 1e3));
  out += fmt::format("total energy: {:.4f} mJ per image\n", estimate.total_j * 1e3);
  out += partial_warning(estimate);
  out += form_mismatch_warning(estimate);
  if (!not_modelled.empty()) out += "not modelled (no energy counted):\n" + not_modelled;
  return out;
}

nlohmann::ordered_json lahmer_json(const LahmerEstimate& estimate) {
  nlohmann::ordered_json layers = nlohmann::ordered_json::array();
  for (const auto& layer : estimate.layers) {
    nlohmann::ordered_json entry = {{"name", layer.name}, {"op", layer.op},   {"modelled", layer.modelled},
                                    {"load", layer.load}, {"ofm", layer.ofm}, {"energy_mj", layer.energy_j * 1e3}};
    if (!layer.note.empty()) entry["note"] = layer.note;
    layers.push_back(entry);
  }
  nlohmann::ordered_json board = {{"name", estimate.board.name},
                                  {"source", estimate.board.source},
                                  {"a_c", estimate.board.a_c},
                                  {"b_c", estimate.board.b_c}};
  board["a_f"] = estimate.board.a_f ? nlohmann::ordered_json(*estimate.board.a_f) : nlohmann::ordered_json(nullptr);
  return {{"schema_version", kLahmerReportSchemaVersion},
          {"estimator", "lahmer"},
          {"workload", estimate.workload},
          {"board", board},
          {"kclc", kclc_form_name(estimate.kclc.form)},
          {"kclc_padding", kclc_padding_name(estimate.kclc.padding)},
          {"total_energy_mj", estimate.total_j * 1e3},
          {"unmodelled_compute_layers", estimate.unmodelled_compute_layers},
          {"layers", layers}};
}

std::string lahmer_csv(const LahmerEstimate& estimate) {
  // Every row names the KCLC form, so the file says how its loads were counted.
  const std::string form = kclc_form_name(estimate.kclc.form), padding = kclc_padding_name(estimate.kclc.padding);
  std::string out = "layer,op,modelled,load,ofm,energy_mj,note,kclc,kclc_padding\n";
  for (const auto& l : estimate.layers) {
    out += fmt::format("{},{},{},{},{},{},{},{},{}\n", csv_quoted(l.name), l.op, l.modelled ? 1 : 0, l.load, l.ofm,
                       l.energy_j * 1e3, csv_quoted(l.note), form, padding);
  }
  out += fmt::format("total,,,,,{},,{},{}\n", estimate.total_j * 1e3, form, padding);
  return out;
}

namespace {

std::string yaml_string(const std::string& text) {
  return nlohmann::json(text).dump();  // a JSON string is a YAML double-quoted scalar
}

// Full precision, so the file gives back the fitted numbers exactly.
std::string exact(double value) {
  return fmt::format("{:.17g}", value);
}

}  // namespace

std::string lahmer_parameters_yaml(const LahmerMeasuredFit& f, const std::string& board) {
  const std::string form = kclc_form_name(f.kclc.form), padding = kclc_padding_name(f.kclc.padding);
  std::string out = fmt::format(
      "# Lahmer et al. (WiOpt 2022) model parameters fitted by `ergon fit lahmer --measurements` with the paper's\n"
      "# procedure (Sec. IV-C: per-ofm slopes, eq. 6; eq. 8 through the origin), {}.\n"
      "# conv: {} rows, R^2 {:.4f}, RMSPE {:.2f} %",
      kclc_description(f.kclc), f.conv_rows, f.fit.conv_fit.r_squared, f.conv_rmspe_pct);
  out += f.has_fc ? fmt::format("; fc: {} rows, R^2 {:.4f}, RMSPE {:.2f} %\n", f.fc_rows, f.fit.fc_fit.r_squared,
                                f.fc_rmspe_pct)
                  : "; no fc rows, so no a_f\n";
  out += "# Estimate with the same KCLC form: --kclc " + form + " --kclc-padding " + padding + "\n";
  out += "source: " + yaml_string("fitted to " + f.measurements_path) + "\n";
  out += "energy_unit: J\nboards:\n";
  out += "  " + yaml_string(board) + ":\n";
  out += "    description: " + yaml_string("fitted to measured layer energies in " + f.measurements_path) + "\n";
  out += "    a_c: " + exact(f.fit.a_c) + "\n    b_c: " + exact(f.fit.b_c) + "\n";
  if (f.has_fc) out += "    a_f: " + exact(f.fit.a_f) + "\n";
  out += "    kclc: " + form + "\n    kclc_padding: " + padding + "\n";
  return out;
}

nlohmann::ordered_json lahmer_measured_fit_json(const LahmerMeasuredFit& f, const std::string& board) {
  nlohmann::ordered_json slopes = nlohmann::ordered_json::array();
  for (const LahmerSlope& s : f.fit.slopes) slopes.push_back({{"ofm", s.ofm}, {"slope_j_per_mac", s.slope_j_per_mac}});
  nlohmann::ordered_json out = {{"schema_version", 1},
                                {"measurements", f.measurements_path},
                                {"board", board},
                                {"kclc", kclc_form_name(f.kclc.form)},
                                {"kclc_padding", kclc_padding_name(f.kclc.padding)},
                                {"a_c", f.fit.a_c},
                                {"b_c", f.fit.b_c},
                                {"a_f", f.has_fc ? nlohmann::ordered_json(f.fit.a_f) : nlohmann::ordered_json(nullptr)},
                                {"conv",
                                 {{"rows", f.conv_rows},
                                  {"r_squared", f.fit.conv_fit.r_squared},
                                  {"rmspe_pct", f.conv_rmspe_pct},
                                  {"mape_pct", f.fit.conv_fit.mape_pct}}},
                                {"eq6_slopes", {{"r_squared", f.fit.slope_fit.r_squared}, {"slopes", slopes}}}};
  if (f.has_fc) {
    out["fc"] = {{"rows", f.fc_rows},
                 {"r_squared", f.fit.fc_fit.r_squared},
                 {"rmspe_pct", f.fc_rmspe_pct},
                 {"mape_pct", f.fit.fc_fit.mape_pct}};
  }
  return out;
}

std::string lahmer_residuals_csv(const LahmerMeasuredFit& f) {
  std::string out = "name,kind,load,ofm,measured_energy_j,model_energy_j,residual_j,residual_pct\n";
  for (const LahmerResidual& r : f.residuals) {
    out += fmt::format("{},{},{},{},{},{},{},{}\n", csv_quoted(r.name), r.kind, r.load, r.ofm, r.measured_j, r.model_j,
                       r.residual_j(), r.residual_pct());
  }
  return out;
}

}  // namespace ergon
