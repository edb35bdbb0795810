#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "arch/accelerator_config.hpp"
#include "arch/components.hpp"
#include "cli/commands/cli_checks.hpp"
#include "cli/commands/commands.hpp"
#include "cli/commands/output.hpp"
#include "common/text.hpp"
#include "sim/data_paths.hpp"
#include "sim/simulation.hpp"

namespace ergon {
namespace {

struct ConfigShowOptions {
  std::string config_path;
  std::vector<std::string> overrides;
  std::string format = "table";
  std::string out_dir;
};

nlohmann::ordered_json dvfs_json(const DvfsConfig& dvfs) {
  nlohmann::ordered_json compute = nlohmann::ordered_json::array(), memory = nlohmann::ordered_json::array();
  for (const ComputeLevel& l : dvfs.compute_levels) {
    compute.push_back({{"frequency_mhz", l.frequency_mhz}, {"voltage_v", l.voltage_v}});
  }
  for (const MemoryLevel& l : dvfs.memory_levels) {
    memory.push_back({{"bandwidth_gbps", l.bandwidth_gbps}, {"voltage_v", l.voltage_v}});
  }
  return {{"compute", {{"switch_overhead_us", dvfs.compute_switch_overhead_us}, {"levels", compute}}},
          {"memory", {{"switch_overhead_us", dvfs.memory_switch_overhead_us}, {"levels", memory}}}};
}

nlohmann::ordered_json config_json(const AcceleratorConfig& c) {
  const auto& rf = c.pe_array.rf;
  nlohmann::ordered_json json = {
      {"name", c.name},
      {"description", c.description},
      {"clock", {{"frequency_mhz", c.clock.frequency_mhz}, {"voltage_v", c.clock.voltage_v}}},
      {"pe_array",
       {{"impl", c.pe_array.impl},
        {"rows", c.pe_array.rows},
        {"cols", c.pe_array.cols},
        {"word_bits", c.pe_array.word_bits},
        {"rf",
         {{"filter_entries", rf.filter_entries},
          {"ifmap_entries", rf.ifmap_entries},
          {"psum_entries", rf.psum_entries}}}}},
      {"glb",
       {{"impl", c.glb.impl},
        {"size_kib", c.glb.size_kib},
        {"filter_size_kib", c.glb.filter_size_kib},
        {"banks", c.glb.banks},
        {"bank_width_bits", c.glb.bank_width_bits},
        {"read_ports_per_bank", c.glb.read_ports_per_bank},
        {"write_ports_per_bank", c.glb.write_ports_per_bank}}},
      {"noc",
       {{"impl", c.noc.impl},
        {"filter_bus_words", c.noc.filter_bus_words},
        {"ifmap_bus_words", c.noc.ifmap_bus_words},
        {"psum_read_bus_words", c.noc.psum_read_bus_words},
        {"psum_write_bus_words", c.noc.psum_write_bus_words}}},
      {"dram",
       {{"preset", c.dram.preset},
        {"impl", c.dram.impl},
        {"word_bits", c.dram.word_bits},
        {"bandwidth_gbps", c.dram.bandwidth_gbps},
        {"latency_ns", c.dram.latency_ns},
        {"request_queue_depth", c.dram.request_queue_depth},
        {"energy_pj_per_bit", c.dram.energy_pj_per_bit}}},
      {"dvfs", dvfs_json(c.dvfs)},
      {"energy", {{"table", c.energy.table}, {"table_file", energy_table_path(c)}}},
  };
  if (c.dram.impl == "banked") {  // bandwidth, latency and the price per bit above follow from the preset
    json["dram"]["page_policy"] = c.dram.page_policy;
    json["dram"]["address_mapping"] = c.dram.address_mapping;
  }
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
  show->add_option("file", options->config_path, "Accelerator config YAML")->required()->check(input_file());
  show->add_option("--set", options->overrides, "Override a key: key.path=value (repeatable)");
  add_format_option(*show, options->format);
  add_report_out_option(*show, options->out_dir, "config");
  show->callback([options] {
    std::optional<OutputFolder> out = open_report_folder(options->out_dir, "config", {options->config_path});
    const AcceleratorConfig loaded = load_accelerator_config(options->config_path, options->overrides);
    if (out) out->add_inputs({energy_table_path(loaded)});
    emit_report(config_forms(loaded), options->format, out, "config");
  });

  CLI::App* counters = config->add_subcommand(
      "counters", "List the counters a config's modules register, with the energy per count its table gives");
  auto counter_options = std::make_shared<ConfigShowOptions>();
  counters->add_option("file", counter_options->config_path, "Accelerator config YAML")
      ->required()
      ->check(input_file());
  counters->add_option("--set", counter_options->overrides, "Override a key: key.path=value (repeatable)");
  add_format_option(*counters, counter_options->format);
  add_report_out_option(*counters, counter_options->out_dir, "counters");
  counters->callback([counter_options] {
    std::optional<OutputFolder> out =
        open_report_folder(counter_options->out_dir, "counters", {counter_options->config_path});
    const AcceleratorConfig loaded = load_accelerator_config(counter_options->config_path, counter_options->overrides);
    if (out) out->add_inputs({energy_table_path(loaded)});
    emit_report(counter_forms(loaded), counter_options->format, out, "counters");
    if (loaded.dram.impl == "banked") {
      std::cerr << "note: a bank-level DRAM prices its traffic by its commands and standby time (docs/dram.md); "
                   "its dram.* price here is what the mapper ranks mappings by\n";
    }
  });
}

ERGON_REGISTER(CliCommand, "config", CliCommand{register_config_command}, 150)

}  // namespace ergon
