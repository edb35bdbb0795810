#include "sim/run_report.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "common/text.hpp"
#include "sim/data_paths.hpp"

namespace ergon {
namespace {

// The mapping's parameters and, when the mapper searched, the cost model's estimate of it and the spread
// of the candidates' objective.
nlohmann::ordered_json mapping_json(const MappingSummary& mapping) {
  nlohmann::ordered_json json = mapping.parameters;
  if (mapping.estimate) json["search"] = search_json(*mapping.estimate);
  return json;
}

nlohmann::ordered_json energy_json(const EnergyBreakdown& e, const std::vector<CounterSpec>& counters) {
  nlohmann::ordered_json json;
  for (const std::string& component : energy_components(counters)) json[component] = e.component_pj(component);
  json["clock"] = e.clock_pj;
  json["control"] = e.control_pj;
  json["leakage"] = e.leakage_pj;
  json["total"] = e.total_pj();
  return json;
}

// Each resource's busy time and share of the layer's time, by name.
void add_busy_fields(nlohmann::ordered_json& json, const LayerResult& l, const std::vector<ResourceSpec>& resources) {
  nlohmann::ordered_json busy_ns, busy_share;
  for (std::size_t i = 0; i < resources.size() && i < l.busy_ps.size(); ++i) {
    busy_ns[resources[i].name] = static_cast<double>(l.busy_ps[i]) / 1e3;
    busy_share[resources[i].name] = l.busy_share[i];
  }
  json["busy_ns"] = busy_ns;
  json["busy_share"] = busy_share;
}

nlohmann::ordered_json layer_json(const LayerResult& l, const SimulationResult& result) {
  const std::vector<CounterSpec>& counters = result.counters;
  nlohmann::ordered_json json = {{"name", l.name},
                                 {"op", l.op},
                                 {"executed", l.executed},
                                 {"batch", l.batch},
                                 {"macs", l.macs},
                                 {"nonzero_macs", l.nonzero_macs},
                                 {"vector_ops", l.vector_ops},
                                 {"cycles", l.cycles},
                                 {"stall_cycles", l.stall_cycles},
                                 {"fill_stall_cycles", l.fill_stall_cycles},
                                 {"drain_stall_cycles", l.drain_stall_cycles},
                                 {"compute_cycles", l.compute_cycles},
                                 {"dram_busy_cycles", l.dram_busy_cycles},
                                 {"bound", result.bound_name(l)},
                                 {"time_ns", l.time_ns},
                                 {"dvfs_switch_ns", l.dvfs_switch_ns},
                                 {"freq_mhz", l.levels.frequency_mhz},
                                 {"voltage_v", l.levels.voltage_v},
                                 {"dram_bandwidth_gbps", l.levels.dram_bandwidth_gbps},
                                 {"memory_voltage_v", l.levels.memory_voltage_v},
                                 {"utilization", l.utilization},
                                 {"active_pes", l.active_pes},
                                 {"passes", l.passes}};
  add_busy_fields(json, l, result.resources);
  for (const CounterSpec& counter : counters) {
    if (counter.tensor.empty() && l.counters.has(counter.name)) json[counter.column] = l.count(counter.name);
  }
  json["energy_pj"] = energy_json(l.energy, counters);
  if (!l.note.empty()) json["note"] = l.note;
  if (l.output_checked) json["output_matches_reference"] = l.output_mismatches == 0;
  if (l.mapping) json["mapping"] = mapping_json(*l.mapping);
  add_dram_bank_fields(json, l);
  if (l.activations_on_chip) {
    json["activations_on_chip"] = {{"input_bytes_found", l.activations_on_chip->input_bytes_found},
                                   {"output_bytes_kept", l.activations_on_chip->output_bytes_kept},
                                   {"weight_bytes_found", l.activations_on_chip->weight_bytes_found}};
  }
  json["tensors"] = tensors_json(l);
  return json;
}

}  // namespace

std::string run_table(const SimulationResult& result) {
  std::string out =
      fmt::format("{} on {} at {} MHz, {} V ({})\n", result.workload_name, result.config_name, result.frequency_mhz,
                  result.voltage_v, result.cycle_accurate ? "cycle accurate" : "transaction level");
  const auto row = [](const auto&... cells) {
    return fmt::format("{:<28} {:>13} {:>12} {:>11} {:>6} {:>14} {:>12} {:>12} {:>12} {:>11}\n", cells...);
  };
  out += row("layer", "MACs", "cycles", "stalls", "util", "bound", "DRAM rd B", "DRAM wr B", "GLB acc", "energy uJ");
  const auto print = [&](const LayerResult& l) {
    return row(l.name, l.macs, l.cycles, l.stall_cycles, fmt::format("{:.1f}%", 100 * l.utilization),
               result.bound_name(l), l.count("dram.read"), l.count("dram.write"),
               l.count("glb.read") + l.count("glb.write"), fmt::format("{:.3f}", l.energy.total_pj() / 1e6));
  };
  for (const auto& layer : result.layers) {
    if (layer.executed) out += print(layer);
  }
  out += print(result.total);
  const double seconds = result.total.time_ns * 1e-9;
  out += fmt::format("latency: {:.3f} ms ({} cycles); energy: {:.3f} mJ for the batch\n", seconds * 1e3,
                     result.total.cycles, result.total.energy.total_pj() / 1e9);
  std::size_t skipped = 0;
  for (const auto& layer : result.layers) skipped += (!layer.executed && layer.op != "input") ? 1 : 0;
  if (result.cycle_accurate) {
    std::size_t checked = 0, wrong = 0;
    for (const auto& layer : result.layers) {
      checked += layer.output_checked ? 1 : 0;
      wrong += layer.output_mismatches > 0 ? 1 : 0;
    }
    out += fmt::format("outputs of {} layers checked against the reference computation: {}\n", checked,
                       wrong == 0 ? "all match" : fmt::format("{} layers DIFFER", wrong));
  }
  if (skipped > 0) {
    out += fmt::format("{} layers move no data (concat and slice are layouts; activations are applied on write-back)\n",
                       skipped);
  }
  return out;
}

double achieved_dram_gbps(const LayerResult& l) {
  return l.time_ns > 0 ? static_cast<double>(l.dram_bytes()) / l.time_ns : 0.0;
}

std::string counter_columns(const std::vector<CounterSpec>& counters) {
  std::string columns;
  for (const CounterSpec& counter : counters) {
    if (counter.tensor.empty()) columns += (columns.empty() ? "" : ",") + counter.column;
  }
  return columns;
}

std::string counter_cells(const LayerResult& layer, const std::vector<CounterSpec>& counters) {
  std::string cells;
  bool first = true;
  for (const CounterSpec& counter : counters) {
    if (!counter.tensor.empty()) continue;
    if (!first) cells += ",";
    first = false;
    if (layer.counters.has(counter.name)) cells += std::to_string(layer.count(counter.name));
  }
  return cells;
}

std::string tensor_columns(const std::vector<CounterSpec>& counters) {
  std::string columns;
  for (const CounterSpec& counter : counters) {
    if (!counter.tensor.empty()) columns += "," + counter.column;
  }
  return columns;
}

std::string tensor_cells(const LayerResult& layer, const std::vector<CounterSpec>& counters) {
  std::string cells;
  for (const CounterSpec& counter : counters) {
    if (counter.tensor.empty()) continue;
    cells += ",";
    if (layer.counters.has(counter.name)) cells += std::to_string(layer.count(counter.name));
  }
  return cells;
}

nlohmann::ordered_json tensors_json(const LayerResult& layer) {
  nlohmann::ordered_json json = nlohmann::ordered_json::object();
  const auto level = [&json](const ActionSpec& action) -> nlohmann::ordered_json& {
    const std::string component(action.component());
    if (!json.contains(component)) {
      for (Tensor tensor : kAllTensors)
        json[component][std::string(tensor_name(tensor))] = nlohmann::ordered_json::object();
    }
    return json[component];
  };
  for (const ActionSpec& action : action_catalogue()) {
    if (action.tensor == TensorOf::kNone || !layer.counters.has(action.name)) continue;
    const std::string column(action.column);
    if (action.tensor == TensorOf::kSplit) {
      for (Tensor tensor : kAllTensors) {
        level(action)[std::string(tensor_name(tensor))][column] =
            layer.count(tensor_counter_spec(action.id, tensor).name);
      }
      continue;
    }
    const Tensor tensor = action.tensor == TensorOf::kWeights  ? Tensor::kWeights
                          : action.tensor == TensorOf::kInputs ? Tensor::kInputs
                                                               : Tensor::kOutputs;
    level(action)[std::string(tensor_name(tensor))][column] = layer.count(action.name);
  }
  return json;
}

std::string busy_share_columns(const std::vector<ResourceSpec>& resources) {
  std::string columns;
  for (const ResourceSpec& resource : resources) columns += (columns.empty() ? "" : ",") + resource.share_column();
  return columns;
}

std::string busy_share_cells(const LayerResult& layer) {
  std::string cells;
  for (double share : layer.busy_share) cells += fmt::format("{}{}", cells.empty() ? "" : ",", share);
  return cells;
}

std::string energy_columns(const std::vector<CounterSpec>& counters) {
  std::string columns;
  for (const std::string& component : energy_components(counters)) columns += component + "_pj,";
  return columns + "clock_pj,control_pj,leakage_pj,total_pj";
}

std::string energy_cells(const EnergyBreakdown& e, const std::vector<CounterSpec>& counters) {
  std::string cells;
  for (const std::string& component : energy_components(counters)) {
    cells += fmt::format("{},", e.component_pj(component));
  }
  return cells + fmt::format("{},{},{},{}", e.clock_pj, e.control_pj, e.leakage_pj, e.total_pj());
}

// The figures of a DRAM model that reports its commands: achieved bandwidth and the energy by kind priced
// from them (its statistics, e.g. refresh cycles, are counters).
void add_dram_bank_fields(nlohmann::ordered_json& json, const LayerResult& l) {
  if (!l.dram_energy) return;
  json["dram_achieved_bandwidth_gbps"] = achieved_dram_gbps(l);
  const DramEnergyByKind& e = *l.dram_energy;
  json["dram_energy_pj"] = {{"activate", e.activate_pj},     {"read", e.read_pj},
                            {"write", e.write_pj},           {"refresh", e.refresh_pj},
                            {"background", e.background_pj}, {"total", e.total_pj()}};
}

namespace {

// The nodes of an imported model the workload leaves out, with the MACs per image each would have done
// (null when its shapes do not give them): the run's figures lack those MACs.
nlohmann::ordered_json skipped_nodes_json(const Workload& workload) {
  nlohmann::ordered_json nodes = nlohmann::ordered_json::array();
  for (const SkippedNode& node : workload.skipped_nodes()) {
    nodes.push_back({{"node", node.node}, {"op", node.op}, {"macs", nullptr}});
    if (node.macs) nodes.back()["macs"] = *node.macs;
  }
  return nodes;
}

}  // namespace

nlohmann::ordered_json area_json(const ChipArea& area) {
  if (!area.known()) return nullptr;
  nlohmann::ordered_json json;
  for (const ComponentArea& component : area.components) json[component.component] = component.um2 / 1e6;
  json["total"] = area.total_um2() / 1e6;
  return json;
}

std::string area_cell(const ChipArea& area) {
  return area.known() ? fmt::format("{}", area.total_um2() / 1e6) : "";
}

ChipArea config_area(const AcceleratorConfig& config) {
  const std::string path = energy_table_path(config);
  try {
    return chip_area(config, load_energy_table(path));
  } catch (const InputError& error) {  // the run read it: a report is not refused for a table changed since
    ChipArea unknown;
    unknown.notes.push_back(std::string("the energy table could not be read again for its area: ") + error.what());
    return unknown;
  }
}

nlohmann::ordered_json run_json(const SimulationResult& result, const AcceleratorConfig& config,
                                const Workload& workload, const std::string& fidelity) {
  nlohmann::ordered_json layers = nlohmann::ordered_json::array();
  for (const auto& layer : result.layers) layers.push_back(layer_json(layer, result));
  nlohmann::ordered_json total = layer_json(result.total, result);
  total.erase("name");
  total.erase("op");
  total.erase("executed");
  total.erase("batch");
  for (const char* key : {"freq_mhz", "voltage_v", "dram_bandwidth_gbps", "memory_voltage_v"}) total.erase(key);
  total["latency_ns"] = result.total.time_ns;
  const ChipArea area = config_area(config);
  return {{"schema_version", kRunReportSchemaVersion},
          {"fidelity", fidelity},
          {"config",
           {{"name", config.name},
            {"file", config.file},
            {"frequency_mhz", config.clock.frequency_mhz},
            {"voltage_v", config.clock.voltage_v},
            {"pe_rows", config.pe_array.rows},
            {"pe_cols", config.pe_array.cols},
            {"word_bits", config.pe_array.word_bits},
            {"glb_size_kib", config.glb.size_kib},
            {"dram_preset", config.dram.preset},
            {"dram_impl", config.dram.impl},
            {"dram_bandwidth_gbps", config.dram.bandwidth_gbps},
            {"dram_latency_ns", config.dram.latency_ns},
            {"energy_table", config.energy.table}}},
          {"energy_notes", result.energy_notes},
          {"area_mm2", area_json(area)},
          {"area_notes", area.notes},
          {"workload",
           {{"name", workload.name()},
            {"file", workload.file()},
            {"source", workload.source()},
            {"skipped_nodes", skipped_nodes_json(workload)}}},
          {"total", total},
          {"layers", layers}};
}

std::string layers_csv(const SimulationResult& result) {
  const std::vector<CounterSpec>& counters = result.counters;
  std::string out =
      "layer,op,executed,batch,macs,nonzero_macs,cycles,stall_cycles,compute_cycles,dram_busy_cycles,bound," +
      busy_share_columns(result.resources) + ",utilization,active_pes,passes," + counter_columns(counters) + "," +
      energy_columns(counters) +
      ",time_ns,fill_stall_cycles,drain_stall_cycles,dvfs_switch_ns,freq_mhz,voltage_v,"
      "dram_bandwidth_gbps,memory_voltage_v,vector_ops";
  const bool priced_by_commands = result.total.dram_energy.has_value();
  if (priced_by_commands) {
    out +=
        ",dram_achieved_bandwidth_gbps,dram_activate_pj,dram_read_pj,dram_write_pj,dram_refresh_pj,dram_background_pj";
  }
  out += tensor_columns(counters) + "\n";
  for (const auto& l : result.layers) {
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},", csv_quoted(l.name), l.op, l.executed ? 1 : 0,
                       l.batch, l.macs, l.nonzero_macs, l.cycles, l.stall_cycles, l.compute_cycles, l.dram_busy_cycles,
                       result.bound_name(l), busy_share_cells(l), l.utilization, l.active_pes, l.passes);
    out += counter_cells(l, counters) + "," + energy_cells(l.energy, counters);
    out += fmt::format(",{},{},{},{},{},{},{},{},{}", l.time_ns, l.fill_stall_cycles, l.drain_stall_cycles,
                       l.dvfs_switch_ns, l.levels.frequency_mhz, l.levels.voltage_v, l.levels.dram_bandwidth_gbps,
                       l.levels.memory_voltage_v, l.vector_ops);
    if (priced_by_commands) {
      const DramEnergyByKind e = l.dram_energy.value_or(DramEnergyByKind{});
      out += fmt::format(",{},{},{},{},{},{}", achieved_dram_gbps(l), e.activate_pj, e.read_pj, e.write_pj,
                         e.refresh_pj, e.background_pj);
    }
    out += tensor_cells(l, counters) + "\n";
  }
  return out;
}

ActivityCsvWriter::ActivityCsvWriter(std::string path, const Workload& workload, ActivityDetail detail,
                                     std::size_t max_rows)
    : path_(std::move(path)), rows_(detail, max_rows) {
  for (const auto& layer : workload.layers()) layer_names_.push_back(layer.name);
}

void ActivityCsvWriter::finish() {
  StreamingFile file(path_);
  file.write(
      "layer,start_cycle,end_cycle,active_pes,macs_per_cycle,rf_accesses_per_cycle,noc_transfers_per_cycle,"
      "glb_accesses_per_cycle,dram_bytes_per_cycle,frequency_mhz,voltage_v,stall,start_ns,end_ns,dvfs_switch,"
      "dram_bandwidth_gbps,intervals\n");
  for (const ActivityRow& row : rows_.rows()) {
    const ActivityInterval& a = row.interval;
    const double cycles = row.cycles();
    const auto rate = [cycles](std::uint64_t count) { return cycles > 0 ? static_cast<double>(count) / cycles : 0.0; };
    fmt::print(file.handle(), "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
               csv_quoted(layer_names_.at(a.layer_index)), a.start_cycle, a.end_cycle, row.mean_active_pes(),
               rate(a.macs), rate(a.rf_accesses), rate(a.noc_transfers), rate(a.glb_accesses), rate(a.dram_bytes),
               a.frequency_mhz, a.voltage_v, row.stall_fraction(), static_cast<double>(a.start_ps) / 1e3,
               static_cast<double>(a.end_ps) / 1e3, a.dvfs_switch ? 1 : 0, a.dram_bandwidth_gbps, row.intervals);
  }
  file.finish();
}

}  // namespace ergon
