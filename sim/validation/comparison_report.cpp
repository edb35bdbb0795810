#include "sim/validation/comparison_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>

#include "common/text.hpp"
#include "common/yaml_view.hpp"
#include "power/estimators/registry.hpp"
#include "sim/data_paths.hpp"
#include "sim/simulation.hpp"

namespace ergon {
namespace {

class ReportBuilder {
 public:
  explicit ReportBuilder(const Workload& workload) {
    report_.workload = workload.name();
    for (const Layer& layer : workload.layers()) {
      if (layer.op == OpKind::kInput) continue;
      index_[layer.name] = report_.layers.size();
      report_.layers.push_back(layer.name);
    }
  }

  SourceValues& add(const std::string& name, const std::string& detail) {
    SourceValues source;
    source.name = name;
    source.detail = detail;
    source.layer_energy_mj.resize(report_.layers.size());
    source.layer_latency_ms.resize(report_.layers.size());
    report_.sources.push_back(std::move(source));
    return report_.sources.back();
  }

  void set(SourceValues& source, const std::string& layer, std::optional<double> energy_mj,
           std::optional<double> latency_ms) {
    const auto found = index_.find(layer);
    if (found == index_.end()) return;
    source.layer_energy_mj[found->second] = energy_mj;
    source.layer_latency_ms[found->second] = latency_ms;
  }

  ComparisonReport finish() {
    // Keep the layers some source has a value for.
    ComparisonReport kept = report_;
    kept.layers.clear();
    for (auto& s : kept.sources) {
      s.layer_energy_mj.clear();
      s.layer_latency_ms.clear();
    }
    for (std::size_t i = 0; i < report_.layers.size(); ++i) {
      bool any = false;
      for (const auto& s : report_.sources)
        any |= s.layer_energy_mj[i].has_value() || s.layer_latency_ms[i].has_value();
      if (!any) continue;
      kept.layers.push_back(report_.layers[i]);
      for (std::size_t j = 0; j < report_.sources.size(); ++j) {
        kept.sources[j].layer_energy_mj.push_back(report_.sources[j].layer_energy_mj[i]);
        kept.sources[j].layer_latency_ms.push_back(report_.sources[j].layer_latency_ms[i]);
      }
    }
    return kept;
  }

 private:
  ComparisonReport report_;
  std::map<std::string, std::size_t> index_;
};

void add_simulation(ReportBuilder& builder, const ChipInputs& chip, const Workload& workload, Fidelity fidelity) {
  const AcceleratorConfig& config = chip.config;
  const SimulationResult result = Simulation(config, chip.table, workload, options_at(fidelity)).run();
  SourceValues& source = builder.add(
      "sim " + config.name,
      fmt::format("Ergon {} simulation of {}, per image", fidelity_title(fidelity), shown_data_path(config.file)));
  // Layers may run different batches (CNNergy's tables give each its own): per image is per layer.
  double energy_mj = 0, latency_ms = 0;
  for (const LayerResult& layer : result.layers) {
    if (!layer.executed) continue;
    const double batch = static_cast<double>(layer.batch);
    builder.set(source, layer.name, layer.energy.total_pj() * 1e-9 / batch, layer.time_ns * 1e-6 / batch);
    energy_mj += layer.energy.total_pj() * 1e-9 / batch;
    latency_ms += layer.time_ns * 1e-6 / batch;
  }
  source.energy_mj = energy_mj;
  source.latency_ms = latency_ms;
}

// Every source an estimator adds (power/estimators/registry.hpp), in the registry's order.
void add_estimates(ReportBuilder& builder, const ComparisonInputs& inputs) {
  for (const auto& estimator : estimators()) {
    for (const EstimateSource& estimate : estimator->comparison_sources(inputs)) {
      SourceValues& source = builder.add(estimate.name, estimate.detail);
      for (const LayerEstimate& layer : estimate.layers) {
        builder.set(source, layer.name, layer.energy_mj, layer.latency_ms);
      }
      source.energy_mj = estimate.energy_mj;
      source.latency_ms = estimate.latency_ms;
    }
  }
}

// Blackthorn's Table 3: measured whole-network latency on the Jetson boards, for the networks it lists.
void add_published(ReportBuilder& builder, const Workload& workload) {
  const std::string path = shipped_data_dir() + "/reference/jetson/blackthorn_2021_tables.yaml";
  const YAML::Node root = load_yaml_file(path);
  const YAML::Node network = root["networks"][workload.name()];
  if (!network) return;
  for (const auto& board : network) {
    SourceValues& source = builder.add("measured " + board.first.as<std::string>(),
                                       root["source"].as<std::string>() + " (TensorRT, batch 1, median of 500)");
    source.latency_ms = board.second["measured_ms"].as<double>();
  }
}

std::string cell(const std::optional<double>& value) {
  return value ? fmt::format("{:.4g}", *value) : "-";
}

bool any(const std::vector<std::optional<double>>& values) {
  return std::any_of(values.begin(), values.end(), [](const auto& v) { return v.has_value(); });
}

// The per-layer columns that hold something: (source, energy?) pairs.
std::vector<std::pair<const SourceValues*, bool>> layer_columns(const ComparisonReport& r) {
  std::vector<std::pair<const SourceValues*, bool>> columns;
  for (const auto& s : r.sources) {
    if (any(s.layer_energy_mj)) columns.emplace_back(&s, true);
    if (any(s.layer_latency_ms)) columns.emplace_back(&s, false);
  }
  return columns;
}

std::string column_title(const std::pair<const SourceValues*, bool>& column) {
  return column.first->name + (column.second ? " mJ" : " ms");
}

std::string column_cell(const std::pair<const SourceValues*, bool>& column, std::size_t layer) {
  return cell(column.second ? column.first->layer_energy_mj[layer] : column.first->layer_latency_ms[layer]);
}

}  // namespace

std::optional<double> SourceValues::edp_mj_ms() const {
  if (!energy_mj || !latency_ms) return std::nullopt;
  return *energy_mj * *latency_ms;
}

ComparisonReport build_comparison(const ComparisonRequest& request) {
  Workload workload = load_workload(request.workload_path);
  if (request.batch > 0) workload.set_batch(request.batch);
  ReportBuilder builder(workload);
  std::vector<ChipInputs> chips;
  for (const std::string& path : request.config_paths) {
    AcceleratorConfig config = load_accelerator_config(path, request.overrides);
    EnergyTable table = load_energy_table(energy_table_path(config));
    chips.push_back({std::move(config), std::move(table)});
  }
  for (const ChipInputs& chip : chips) add_simulation(builder, chip, workload, request.fidelity);
  add_estimates(builder, {workload, chips, request.estimator_settings, shipped_data_dir()});
  add_published(builder, workload);
  return builder.finish();
}

std::string comparison_table(const ComparisonReport& r) {
  std::string out = fmt::format("{}: per image, by source\n", r.workload);
  out += fmt::format("{:<22} {:>12} {:>12} {:>12}\n", "source", "energy mJ", "latency ms", "EDP mJ*ms");
  for (const auto& s : r.sources) {
    out += fmt::format("{:<22} {:>12} {:>12} {:>12}\n", s.name, cell(s.energy_mj), cell(s.latency_ms),
                       cell(s.edp_mj_ms()));
  }
  const auto columns = layer_columns(r);
  out += fmt::format("\nper layer:\n{:<24}", "layer");
  for (const auto& c : columns) out += fmt::format(" {:>20}", column_title(c));
  out += "\n";
  for (std::size_t l = 0; l < r.layers.size(); ++l) {
    out += fmt::format("{:<24}", r.layers[l]);
    for (const auto& c : columns) out += fmt::format(" {:>20}", column_cell(c, l));
    out += "\n";
  }
  out += "sources:\n";
  for (const auto& s : r.sources) out += fmt::format("  {}: {}\n", s.name, s.detail);
  return out;
}

std::string comparison_markdown(const ComparisonReport& r) {
  std::string out = fmt::format(
      "### {}: per image\n\n| source | energy mJ | latency ms | EDP mJ·ms | note |\n|---|---|---|---|---|\n",
      r.workload);
  for (const auto& s : r.sources) {
    out += fmt::format("| {} | {} | {} | {} | {} |\n", s.name, cell(s.energy_mj), cell(s.latency_ms),
                       cell(s.edp_mj_ms()), s.detail);
  }
  const auto columns = layer_columns(r);
  out += "\n| layer |";
  for (const auto& c : columns) out += " " + column_title(c) + " |";
  out += "\n|---|";
  for (std::size_t i = 0; i < columns.size(); ++i) out += "---|";
  out += "\n";
  for (std::size_t l = 0; l < r.layers.size(); ++l) {
    out += "| " + r.layers[l] + " |";
    for (const auto& c : columns) out += " " + column_cell(c, l) + " |";
    out += "\n";
  }
  return out;
}

std::string comparison_csv(const ComparisonReport& r) {
  std::string out = "layer,source,energy_mj,latency_ms,edp_mj_ms\n";
  const auto number = [](const std::optional<double>& v) { return v ? fmt::format("{}", *v) : std::string(); };
  for (std::size_t l = 0; l < r.layers.size(); ++l) {
    for (const auto& s : r.sources) {
      if (!s.layer_energy_mj[l] && !s.layer_latency_ms[l]) continue;
      out += fmt::format("{},{},{},{},\n", csv_quoted(r.layers[l]), csv_quoted(s.name), number(s.layer_energy_mj[l]),
                         number(s.layer_latency_ms[l]));
    }
  }
  for (const auto& s : r.sources) {
    out += fmt::format("total,{},{},{},{}\n", csv_quoted(s.name), number(s.energy_mj), number(s.latency_ms),
                       number(s.edp_mj_ms()));
  }
  return out;
}

nlohmann::ordered_json comparison_json(const ComparisonReport& r) {
  const auto number = [](const std::optional<double>& v) {
    return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
  };
  nlohmann::ordered_json sources = nlohmann::ordered_json::array();
  for (const auto& s : r.sources) {
    nlohmann::ordered_json layers = nlohmann::ordered_json::array();
    for (std::size_t l = 0; l < r.layers.size(); ++l) {
      if (!s.layer_energy_mj[l] && !s.layer_latency_ms[l]) continue;
      layers.push_back({{"name", r.layers[l]},
                        {"energy_mj", number(s.layer_energy_mj[l])},
                        {"latency_ms", number(s.layer_latency_ms[l])}});
    }
    sources.push_back({{"name", s.name},
                       {"detail", s.detail},
                       {"energy_mj", number(s.energy_mj)},
                       {"latency_ms", number(s.latency_ms)},
                       {"edp_mj_ms", number(s.edp_mj_ms())},
                       {"layers", layers}});
  }
  return {{"schema_version", 1}, {"workload", r.workload}, {"unit_note", "per image"}, {"sources", sources}};
}

}  // namespace ergon
