#include "power/estimators/lahmer_report.hpp"

#include <fmt/format.h>

#include "common/text.hpp"

namespace ergon {
namespace {

const char* form_name(KclcForm form) {
  return form == KclcForm::kExact ? "exact" : "approximate";
}

std::string heading(const LahmerEstimate& e) {
  return fmt::format("Lahmer et al. estimate of {} on {} ({} KCLC; {}); energy per image in mJ", e.workload,
                     e.board.name, form_name(e.form), e.board.source);
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
          {"kclc", form_name(estimate.form)},
          {"total_energy_mj", estimate.total_j * 1e3},
          {"unmodelled_compute_layers", estimate.unmodelled_compute_layers},
          {"layers", layers}};
}

std::string lahmer_csv(const LahmerEstimate& estimate) {
  std::string out = "layer,op,modelled,load,ofm,energy_mj,note\n";
  for (const auto& l : estimate.layers) {
    out += fmt::format("{},{},{},{:.0f},{:.0f},{:.6g},{}\n", csv_quoted(l.name), l.op, l.modelled ? 1 : 0, l.load,
                       l.ofm, l.energy_j * 1e3, csv_quoted(l.note));
  }
  out += fmt::format("total,,,,,{:.6g},\n", estimate.total_j * 1e3);
  return out;
}

}  // namespace ergon
