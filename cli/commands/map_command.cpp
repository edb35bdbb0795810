// `ergon map`: the mapping the dataflow's mapper chooses for each layer (or one), as parameters and as a
// loop nest, with the spread of the candidates' objective; nothing is simulated. `--mapping F` pins
// parameters the way `ergon run --mapping F` does.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands/cli_checks.hpp"
#include "cli/commands/commands.hpp"
#include "cli/commands/output.hpp"
#include "common/text.hpp"
#include "sim/data_paths.hpp"
#include "sim/layer_planning.hpp"
#include "sim/simulation.hpp"

namespace ergon {
namespace {

struct MapOptions {
  std::string config_path = default_config_path();
  std::string workload_path;
  std::vector<std::string> overrides;
  std::int64_t batch = 0;
  std::string layer;
  std::string mapping_path;
  std::string format = "table";
  std::string out_dir;
};

struct MappedLayer {
  const Layer* layer = nullptr;
  std::unique_ptr<LayerPlan> plan;  // null: not executed on the array
};

std::string parameters_line(const nlohmann::ordered_json& parameters) {
  std::string line;
  for (const auto& [key, value] : parameters.items()) {
    line += (line.empty() ? "" : ", ") + key + " " + (value.is_string() ? value.get<std::string>() : value.dump());
  }
  return line;
}

std::string search_line(const MappingSummary::Estimate& e) {
  const double best = e.best_objective;
  const auto ratio = [best](double value) { return best > 0 ? value / best : 0.0; };
  return fmt::format(
      "search: {} candidates by {}; chosen: estimate {:.0f} cycles, {:.4g} uJ; the median candidate is {:.2f}x "
      "the chosen objective, the worst {:.2f}x",
      e.candidates, e.objective, e.cycles, e.energy_pj / 1e6, ratio(e.median_objective), ratio(e.worst_objective));
}

std::string layer_table(const MappedLayer& mapped) {
  std::string text = fmt::format("{} ({})\n", mapped.layer->name, op_name(mapped.layer->op));
  if (!mapped.plan) return text + "  not executed on the PE array\n";
  const MappingSummary mapping = mapped.plan->mapping();
  text += "  mapping: " + parameters_line(mapping.parameters) + "\n  loop nest:\n";
  for (const std::string& line : mapped.plan->loop_nest()) text += "    " + line + "\n";
  if (mapping.estimate) text += "  " + search_line(*mapping.estimate) + "\n";
  return text;
}

nlohmann::ordered_json layer_json(const MappedLayer& mapped) {
  nlohmann::ordered_json json = {{"name", mapped.layer->name}, {"op", op_name(mapped.layer->op)}};
  json["executed"] = mapped.plan != nullptr;
  if (!mapped.plan) return json;
  const MappingSummary mapping = mapped.plan->mapping();
  json["mapping"] = mapping.parameters;
  json["loop_nest"] = mapped.plan->loop_nest();
  if (mapping.estimate) json["search"] = search_json(*mapping.estimate);
  return json;
}

std::string parameter_text(const nlohmann::ordered_json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

// A row per layer: the union of the dataflows' parameter names as columns (empty where a layer's mapping
// has no such parameter), then the mapper's estimate.
std::string mapping_csv(const std::vector<MappedLayer>& mapped) {
  std::vector<std::string> keys;
  for (const MappedLayer& layer : mapped) {
    if (!layer.plan) continue;
    const MappingSummary mapping = layer.plan->mapping();
    for (auto item = mapping.parameters.begin(); item != mapping.parameters.end(); ++item) {
      if (std::find(keys.begin(), keys.end(), item.key()) == keys.end()) keys.push_back(item.key());
    }
  }
  std::string csv = "layer,op,executed";
  for (const std::string& key : keys) csv += "," + csv_quoted(key);
  csv +=
      ",objective,estimate_cycles,estimate_energy_pj,estimate_dram_bytes,estimate_glb_accesses,candidates,"
      "median_over_best,worst_over_best\n";
  for (const MappedLayer& layer : mapped) {
    csv += csv_quoted(layer.layer->name) + "," + op_name(layer.layer->op) + "," + (layer.plan ? "1" : "0");
    MappingSummary mapping;
    if (layer.plan) mapping = layer.plan->mapping();
    for (const std::string& key : keys) {
      csv += "," + (mapping.parameters.contains(key) ? csv_quoted(parameter_text(mapping.parameters[key])) : "");
    }
    if (const auto& e = mapping.estimate) {
      const auto ratio = [&e](double value) { return e->best_objective > 0 ? value / e->best_objective : 0.0; };
      csv += fmt::format(",{},{},{},{},{},{},{},{}\n", e->objective, e->cycles, e->energy_pj, e->dram_bytes,
                         e->glb_accesses, e->candidates, ratio(e->median_objective), ratio(e->worst_objective));
    } else {
      csv += ",,,,,,,,\n";
    }
  }
  return csv;
}

void run_map(const MapOptions& options) {
  std::optional<OutputFolder> out = open_report_folder(
      options.out_dir, "mapping", {options.config_path, options.workload_path, options.mapping_path});
  const Chip chip(load_accelerator_config(options.config_path, options.overrides));
  const AcceleratorConfig& config = chip.config();
  const Workload workload = load_workload(options.workload_path);
  refuse_workload_without_work(workload);
  std::vector<std::string> names;
  for (const Layer& layer : workload.layers()) names.push_back(layer.name);
  if (!options.layer.empty() && std::find(names.begin(), names.end(), options.layer) == names.end()) {
    throw std::runtime_error("--layer: " + unknown_layer_message(options.layer, names, workload.name()));
  }
  std::optional<MappingFile> pins;
  if (!options.mapping_path.empty()) {
    pins = load_mapping_file(options.mapping_path);
    check_mapping_layers(*pins, names, workload.name());
  }
  std::vector<MappedLayer> mapped;
  LayerPlanningRun planning{
      options.batch > 0 ? std::optional<std::int64_t>(options.batch) : std::nullopt, pins ? &*pins : nullptr, {}, {}};
  planning.before_layer = [&](std::size_t i) {
    return options.layer.empty() || workload.layers()[i].name == options.layer;
  };
  planning.planned = [&](std::size_t i, std::int64_t, std::unique_ptr<LayerPlan> plan) {
    mapped.push_back({&workload.layers()[i], std::move(plan)});
  };
  plan_layers(chip, workload, planning);  // the run pipeline's plan stage alone
  nlohmann::ordered_json json = {{"config", config.name}, {"workload", workload.name()}};
  json["layers"] = nlohmann::ordered_json::array();
  for (const MappedLayer& layer : mapped) json["layers"].push_back(layer_json(layer));
  std::string text = fmt::format("{} on {} ({}, mapper objective {})\n\n", workload.name(), config.name,
                                 config.pe_array.impl, mapper_objective_name(config.mapper.objective));
  for (const MappedLayer& layer : mapped) text += layer_table(layer) + "\n";
  emit_report({text, json.dump(2) + "\n", mapping_csv(mapped)}, options.format, out, "mapping");
}

}  // namespace

void register_map_command(CLI::App& app) {
  CLI::App* command =
      app.add_subcommand("map", "Show the mapping chosen for each layer, its loop nest and the candidates' spread");
  auto options = std::make_shared<MapOptions>();
  command->footer("Example:\n  ergon map -c eyeriss -w alexnet --batch 4 --layer conv3");
  command->add_option("--config,-c", options->config_path, "Accelerator config YAML")
      ->capture_default_str()
      ->transform(shipped_config());
  command->add_option("--workload,-w", options->workload_path, "Workload YAML")
      ->required()
      ->transform(shipped_workload());
  command->add_option("--set", options->overrides, "Override a config key: key.path=value (repeatable)");
  add_batch_option(*command, options->batch);
  command->add_option("--layer", options->layer, "Only this layer");
  command->add_option("--mapping", options->mapping_path, "Mapping file pinning parameters per layer (docs/mapping.md)")
      ->check(input_file());
  add_format_option(*command, options->format);
  add_report_out_option(*command, options->out_dir, "mapping");
  command->callback([options] { run_map(*options); });
}

ERGON_REGISTER(CliCommand, "map", CliCommand{register_map_command}, 20)

}  // namespace ergon
