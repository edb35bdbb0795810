#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "arch/accelerator_config.hpp"
#include "arch/components.hpp"
#include "arch/config_keys.hpp"
#include "cli/commands/cli_checks.hpp"
#include "cli/commands/commands.hpp"
#include "cli/commands/output.hpp"
#include "common/text.hpp"
#include "power/area_model.hpp"
#include "sim/data_paths.hpp"
#include "sim/run_report.hpp"
#include "sim/simulation.hpp"

namespace ergon {
namespace {

struct ConfigShowOptions {
  std::string config_path;
  std::vector<std::string> overrides;
  std::string format = "table";
  std::string out_dir;
};

// Every key of the schema that applies to the config, with its loaded value (defaults filled in), the energy
// table's file as the config resolves it, and the chip's area with that table (docs/area.md; null without
// area figures, and area_notes say why).
nlohmann::ordered_json config_json(const AcceleratorConfig& config) {
  nlohmann::ordered_json json = accelerator_config_values(config);
  json["energy"]["table_file"] = energy_table_path(config);
  const ChipArea area = chip_area(config, load_energy_table(energy_table_path(config)));
  json["area_mm2"] = area_json(area);
  json["area_notes"] = area.notes;
  return json;
}

// Every leaf as a key path (the spelling of --set) and its value; list items by index.
void flatten(const nlohmann::ordered_json& node, const std::string& path,
             std::vector<std::pair<std::string, nlohmann::ordered_json>>& rows) {
  if (node.is_object() || node.is_array()) {
    std::size_t index = 0;
    for (auto item = node.begin(); item != node.end(); ++item, ++index) {
      const std::string key = node.is_object() ? item.key() : std::to_string(index);
      flatten(*item, path.empty() ? key : path + "." + key, rows);
    }
    return;
  }
  rows.emplace_back(path, node);
}

ReportForms config_forms(const AcceleratorConfig& config) {
  const nlohmann::ordered_json json = config_json(config);
  std::vector<std::pair<std::string, nlohmann::ordered_json>> rows;
  flatten(json, "", rows);
  std::size_t width = 0;
  for (const auto& row : rows) width = std::max(width, row.first.size());
  ReportForms forms{"", json.dump(2) + "\n", "key,value\n"};
  for (const auto& [key, value] : rows) {
    const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
    forms.table += fmt::format("{:<{}}  {}\n", key, width, text);
    forms.csv += key + "," + (value.is_string() ? csv_quoted(text) : text) + "\n";  // numbers unquoted
  }
  return forms;
}

// The schema's declarations (docs/config.md's key table is `--format markdown`).
ReportForms config_key_forms() {
  const std::vector<ConfigKeyInfo> keys = accelerator_config_keys();
  std::string csv = "key,type,default,unit,range,choices,applies_when,help\n";
  for (const ConfigKeyInfo& key : keys) {
    std::string choices;
    for (const std::string& choice : key.choices) choices += (choices.empty() ? "" : "|") + choice;
    csv += fmt::format("{},{},{},{},{},{},{},{}\n", key.path, config_key_type_name(key.type),
                       csv_quoted(key.default_text), key.unit, csv_quoted(key.range), csv_quoted(choices),
                       csv_quoted(key.applies_when), csv_quoted(key.help));
  }
  ReportForms forms{config_keys_table(keys), config_keys_json(keys).dump(2) + "\n", csv};
  forms.markdown = config_keys_markdown(keys);
  return forms;
}

// Each counter the config's modules register, and for an energy action its energy per count from the
// config's table at the nominal operating point (docs/energy.md).
ReportForms counter_forms(const AcceleratorConfig& config) {
  const std::vector<CounterSpec> specs = module_counter_specs(config);
  const EnergyTable table = load_energy_table(energy_table_path(config));
  check_table_prices(table, config.pe_array.word_bits, specs);
  const OperatingPoint point = operating_point(config, table, nominal_levels(config));
  auto shared = std::make_shared<const std::vector<CounterSpec>>(specs);
  nlohmann::ordered_json json = nlohmann::ordered_json::array();
  ReportForms forms{
      fmt::format("{:<20} {:<11} {:<20} {:>9}  {}\n", "counter", "unit", "column", "pJ/count", "description"), "",
      "counter,unit,column,energy_action,pj_per_count,description\n"};
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const CounterSpec& spec = specs[i];
    std::vector<std::uint64_t> one(specs.size(), 0);
    one[i] = 1;
    const double pj = price_activity(CounterValues(shared, one), {}, table, point).component_pj(spec.component());
    nlohmann::ordered_json row = {
        {"counter", spec.name}, {"unit", spec.unit}, {"column", spec.column}, {"energy_action", spec.energy_action}};
    if (spec.energy_action) row["pj_per_count"] = pj;
    row["description"] = spec.description;
    json.push_back(row);
    const std::string price = spec.energy_action ? fmt::format("{:.4g}", pj) : "-";
    forms.table +=
        fmt::format("{:<20} {:<11} {:<20} {:>9}  {}\n", spec.name, spec.unit, spec.column, price, spec.description);
    forms.csv += fmt::format("{},{},{},{},{},{}\n", spec.name, spec.unit, spec.column, spec.energy_action ? 1 : 0,
                             spec.energy_action ? fmt::format("{}", pj) : "", csv_quoted(spec.description));
  }
  forms.json =
      nlohmann::ordered_json{{"config", config.name}, {"energy_table", table.file}, {"counters", json}}.dump(2) + "\n";
  return forms;
}

}  // namespace

void register_config_command(CLI::App& app) {
  CLI::App* config = app.add_subcommand("config", "Check and inspect accelerator configs");
  config->require_subcommand(1);
  CLI::App* show = config->add_subcommand("show", "Validate a config and print it with every default filled in");
  auto options = std::make_shared<ConfigShowOptions>();
  show->footer("Example:\n  ergon config show edge_tpu --set glb.size_kib=1024");
  show->add_option("file", options->config_path, "Accelerator config YAML")->required()->transform(shipped_config());
  show->add_option("--set", options->overrides, "Override a key: key.path=value (repeatable)");
  add_format_option(*show, options->format);
  add_report_out_option(*show, options->out_dir, "config");
  show->callback([options] {
    std::optional<OutputFolder> out = open_report_folder(options->out_dir, "config", {options->config_path});
    const AcceleratorConfig loaded = load_accelerator_config(options->config_path, options->overrides);
    if (out) out->add_inputs({energy_table_path(loaded)});
    emit_report(config_forms(loaded), options->format, out, "config");
  });

  CLI::App* keys = config->add_subcommand(
      "keys", "List every config key: type, default, unit, range or choices, when it applies, and what it means");
  auto keys_format = std::make_shared<std::string>("table");
  keys->footer("Example:\n  ergon config keys --format markdown");
  add_format_option(*keys, *keys_format);
  keys->callback([keys_format] {
    std::optional<OutputFolder> no_folder;
    emit_report(config_key_forms(), *keys_format, no_folder, "config_keys");
  });

  CLI::App* counters = config->add_subcommand(
      "counters", "List the counters a config's modules register, with the energy per count its table gives");
  auto counter_options = std::make_shared<ConfigShowOptions>();
  counters->footer("Example:\n  ergon config counters eyeriss");
  counters->add_option("file", counter_options->config_path, "Accelerator config YAML")
      ->required()
      ->transform(shipped_config());
  counters->add_option("--set", counter_options->overrides, "Override a key: key.path=value (repeatable)");
  add_format_option(*counters, counter_options->format);
  add_report_out_option(*counters, counter_options->out_dir, "counters");
  counters->callback([counter_options] {
    std::optional<OutputFolder> out =
        open_report_folder(counter_options->out_dir, "counters", {counter_options->config_path});
    const AcceleratorConfig loaded = load_accelerator_config(counter_options->config_path, counter_options->overrides);
    if (out) out->add_inputs({energy_table_path(loaded)});
    emit_report(counter_forms(loaded), counter_options->format, out, "counters");
    if (dram_reports_commands(loaded.dram)) {
      std::cerr << "note: a bank-level DRAM prices its traffic by its commands and standby time (docs/dram.md); "
                   "its dram.* price here is what the mapper ranks mappings by\n";
    }
  });
}

ERGON_REGISTER(CliCommand, "config", CliCommand{register_config_command}, 150)

}  // namespace ergon
