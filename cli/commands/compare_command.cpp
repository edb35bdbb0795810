// `ergon compare`: the simulation and the CNNergy analytical estimate side by side, per layer and per
// image. Two separate computations: neither feeds the other.
#include <fmt/format.h>

#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands/cli_checks.hpp"
#include "cli/commands/commands.hpp"
#include "cli/commands/output.hpp"
#include "dataflows/registry.hpp"
#include "power/estimators/cnnergy.hpp"
#include "power/estimators/cnnergy_hardware.hpp"
#include "sim/data_paths.hpp"
#include "sim/simulation.hpp"
#include "sim/validation/comparison_report.hpp"

namespace ergon {
namespace {

struct CompareOptions {
  std::vector<std::string> config_paths;
  std::string workload_path;
  std::vector<std::string> overrides;
  std::string blackthorn_models;
  std::string format = "table";
  std::string out_dir;
  SimulationChoice simulation;
};

struct ComparedLayer {
  std::string name;
  double sim_energy_mj = 0, cnnergy_energy_mj = 0;
  EnergyBreakdown sim_energy_pj;  // per image
  CnnergyEnergy cnnergy_energy_pj;
  double sim_dram_words = 0, cnnergy_dram_words = 0;
  double sim_glb_accesses = 0, cnnergy_glb_accesses = 0;
  double sim_latency_us = 0, cnnergy_latency_us = 0;
};

EnergyBreakdown per_image(EnergyBreakdown energy, double batch) {
  for (ComponentEnergy& component : energy.components) component.pj /= batch;
  for (double* part : {&energy.clock_pj, &energy.control_pj, &energy.leakage_pj}) *part /= batch;
  return energy;
}

struct Comparison {
  std::vector<ComparedLayer> rows;
  std::vector<std::string> skipped;  // "layer: why"
};

Comparison compare(const AcceleratorConfig& config, const EnergyTable& table, const Workload& workload,
                   Fidelity fidelity) {
  const CnnergyHardware hardware = cnnergy_hardware(config);
  const SimulationResult simulated = Simulation(config, table, workload, options_at(fidelity)).run();
  CnnergyOptions cnnergy_options;
  cnnergy_options.word_bits = config.pe_array.word_bits;
  const CnnergyEstimate estimate = estimate_cnnergy(workload, table, hardware, cnnergy_options);
  std::map<std::string, const CnnergyLayerEstimate*> estimates;
  for (const auto& layer : estimate.layers) estimates[layer.name] = &layer;

  const double word_bytes = config.pe_array.word_bits / 8.0;
  Comparison comparison;
  for (const LayerResult& sim : simulated.layers) {
    const auto found = estimates.find(sim.name);
    if (found == estimates.end() || !found->second->modelled) {
      if (sim.executed) {
        comparison.skipped.push_back(
            sim.name + ": " +
            (found == estimates.end() ? std::string("no CNNergy estimate") : found->second->not_modelled_reason));
      }
      continue;
    }
    if (!sim.executed) continue;
    const CnnergyLayerEstimate& est = *found->second;
    const double batch = static_cast<double>(sim.batch);
    ComparedLayer row;
    row.name = sim.name;
    row.sim_energy_pj = per_image(sim.energy, batch);
    row.cnnergy_energy_pj = est.energy;
    row.sim_energy_mj = row.sim_energy_pj.total_pj() / 1e9;
    row.cnnergy_energy_mj = est.energy.total_pj() / 1e9;
    row.sim_dram_words = static_cast<double>(sim.dram_bytes()) / word_bytes / batch;
    row.cnnergy_dram_words = est.accesses.dram_words;
    row.sim_glb_accesses = static_cast<double>(sim.count("glb.read") + sim.count("glb.write")) / batch;
    row.cnnergy_glb_accesses = est.accesses.glb;
    row.sim_latency_us = static_cast<double>(sim.cycles) / config.clock.frequency_mhz / batch;
    row.cnnergy_latency_us = static_cast<double>(est.macs) / cnnergy_options.throughput_macs_per_s * 1e6;
    comparison.rows.push_back(row);
  }
  return comparison;
}

std::string ratio(double simulated, double estimated) {
  return estimated > 0 ? fmt::format("{:.2f}x", simulated / estimated) : "-";
}

std::string compare_table(const std::vector<ComparedLayer>& rows, const std::string& workload, Fidelity fidelity) {
  std::string out = fmt::format(
      "{}: {} simulation vs CNNergy estimate, per image\n"
      "{:<24} {:>10} {:>10} {:>7} {:>12} {:>12} {:>7} {:>12} {:>12} {:>7} {:>10} {:>10} {:>7}\n",
      workload, fidelity_title(fidelity), "layer", "sim mJ", "CNNergy", "ratio", "sim DRAM w", "CNNergy", "ratio",
      "sim GLB acc", "CNNergy", "ratio", "sim us", "CNNergy", "ratio");
  ComparedLayer total;
  total.name = "total";
  for (const auto& r : rows) {
    total.sim_energy_mj += r.sim_energy_mj;
    total.cnnergy_energy_mj += r.cnnergy_energy_mj;
    total.sim_dram_words += r.sim_dram_words;
    total.cnnergy_dram_words += r.cnnergy_dram_words;
    total.sim_glb_accesses += r.sim_glb_accesses;
    total.cnnergy_glb_accesses += r.cnnergy_glb_accesses;
    total.sim_latency_us += r.sim_latency_us;
    total.cnnergy_latency_us += r.cnnergy_latency_us;
    total.sim_energy_pj += r.sim_energy_pj;
    total.cnnergy_energy_pj += r.cnnergy_energy_pj;
  }
  const auto line = [](const ComparedLayer& r) {
    return fmt::format(
        "{:<24} {:>10.4f} {:>10.4f} {:>7} {:>12.0f} {:>12.0f} {:>7} {:>12.0f} {:>12.0f} {:>7} {:>10.1f} "
        "{:>10.1f} {:>7}\n",
        r.name, r.sim_energy_mj, r.cnnergy_energy_mj, ratio(r.sim_energy_mj, r.cnnergy_energy_mj), r.sim_dram_words,
        r.cnnergy_dram_words, ratio(r.sim_dram_words, r.cnnergy_dram_words), r.sim_glb_accesses, r.cnnergy_glb_accesses,
        ratio(r.sim_glb_accesses, r.cnnergy_glb_accesses), r.sim_latency_us, r.cnnergy_latency_us,
        ratio(r.sim_latency_us, r.cnnergy_latency_us));
  };
  for (const auto& r : rows) out += line(r);
  out += line(total);
  const EnergyBreakdown& s = total.sim_energy_pj;
  const CnnergyEnergy& c = total.cnnergy_energy_pj;
  out += "\nenergy by component, mJ per image (layers both model):\n";
  out += fmt::format("{:<10} {:>10} {:>10} {:>7}\n", "component", "sim", "CNNergy", "ratio");
  const std::pair<const char*, std::pair<double, double>> parts[] = {
      {"MAC", {s.component_pj("mac"), c.mac_pj}},      {"RF", {s.component_pj("rf"), c.rf_pj}},
      {"NoC", {s.component_pj("noc"), c.inter_pe_pj}}, {"GLB", {s.component_pj("glb"), c.glb_pj}},
      {"DRAM", {s.component_pj("dram"), c.dram_pj}},   {"clock", {s.clock_pj, c.clock_pj}},
      {"control", {s.control_pj, c.control_pj}}};
  for (const auto& [name, values] : parts) {
    out += fmt::format("{:<10} {:>10.4f} {:>10.4f} {:>7}\n", name, values.first / 1e9, values.second / 1e9,
                       ratio(values.first, values.second));
  }
  return out;
}

std::string compare_json(const Comparison& comparison, const std::string& workload) {
  const std::vector<ComparedLayer>& rows = comparison.rows;
  nlohmann::ordered_json layers = nlohmann::ordered_json::array();
  for (const auto& r : rows) {
    layers.push_back(
        {{"name", r.name},
         {"sim_energy_mj", r.sim_energy_mj},
         {"cnnergy_energy_mj", r.cnnergy_energy_mj},
         {"sim_clock_and_control_mj", (r.sim_energy_pj.clock_pj + r.sim_energy_pj.control_pj) / 1e9},
         {"cnnergy_clock_and_control_mj", (r.cnnergy_energy_pj.clock_pj + r.cnnergy_energy_pj.control_pj) / 1e9},
         {"sim_dram_mj", r.sim_energy_pj.component_pj("dram") / 1e9},
         {"cnnergy_dram_mj", r.cnnergy_energy_pj.dram_pj / 1e9},
         {"sim_dram_words", r.sim_dram_words},
         {"cnnergy_dram_words", r.cnnergy_dram_words},
         {"sim_glb_accesses", r.sim_glb_accesses},
         {"cnnergy_glb_accesses", r.cnnergy_glb_accesses},
         {"sim_latency_us", r.sim_latency_us},
         {"cnnergy_latency_us", r.cnnergy_latency_us}});
  }
  const nlohmann::ordered_json json = {{"schema_version", 1},
                                       {"workload", workload},
                                       {"unit_note", "per image"},
                                       {"layers", layers},
                                       {"not_compared", comparison.skipped}};
  return json.dump(2) + "\n";
}

// The simulation of the first row-stationary config beside CNNergy, by component: the table's detail, or
// the whole of --format cnnergy-json.
std::string cnnergy_detail(const CompareOptions& options, const Workload& workload, bool as_json) {
  for (const std::string& path : options.config_paths) {
    const AcceleratorConfig config = load_accelerator_config(path, options.overrides);
    if (!is_row_stationary(config.pe_array)) continue;
    const Fidelity fidelity = parse_fidelity(options.simulation.fidelity);
    const Comparison comparison = compare(config, load_energy_table(energy_table_path(config)), workload, fidelity);
    if (as_json) return compare_json(comparison, workload.name());
    std::string text;
    if (!comparison.rows.empty()) text += compare_table(comparison.rows, workload.name(), fidelity);
    if (!comparison.skipped.empty()) {
      text += "\nsimulated but not in the comparison (CNNergy does not model them):\n";
      for (const auto& line : comparison.skipped) text += "  " + line + "\n";
    }
    return text;
  }
  return "";
}

void run_compare(CompareOptions options) {
  if (options.config_paths.empty()) options.config_paths.push_back(default_config_path());
  // Checked before anything runs: the simulations would make a later refusal an exception after SystemC.
  std::vector<std::string> read = options.config_paths;
  read.push_back(options.workload_path);
  if (!options.blackthorn_models.empty()) read.push_back(options.blackthorn_models + "/models.json");
  for (const std::string& path : options.config_paths) {
    read.push_back(energy_table_path(load_accelerator_config(path, options.overrides)));
  }
  std::optional<OutputFolder> out = open_report_folder(options.out_dir, "comparison", read);
  Workload workload = load_workload(options.workload_path);
  apply_batch(options.simulation, workload);
  refuse_workload_without_work(workload);
  if (options.format == "cnnergy-json") {
    std::cout << cnnergy_detail(options, workload, true);
    if (!out) return;  // else --out still gets the comparison report
  }
  ComparisonRequest request{options.workload_path,    options.config_paths,
                            options.overrides,        {},
                            options.simulation.batch, parse_fidelity(options.simulation.fidelity)};
  if (!options.blackthorn_models.empty())
    request.estimator_settings["blackthorn"].set("models", options.blackthorn_models);
  const ComparisonReport report = build_comparison(request);
  ReportForms forms{"", comparison_json(report).dump(2) + "\n", comparison_csv(report), comparison_markdown(report)};
  if (options.format == "table")
    forms.table = comparison_table(report) + "\n" + cnnergy_detail(options, workload, false);
  write_report_files(forms, out, "comparison");
  if (options.format != "cnnergy-json") print_report(forms, options.format);
}

}  // namespace

void register_compare_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand(
      "compare", "One comparison report: simulations, CNNergy, Lahmer (TX2, Xavier NX), Blackthorn and measurements");
  auto options = std::make_shared<CompareOptions>();
  command->footer("Example:\n  ergon compare -w vgg16 -c eyeriss -c edge_tpu --format markdown");
  command
      ->add_option("--config,-c", options->config_paths,
                   "Accelerator config YAML to simulate (repeatable; default eyeriss)")
      ->transform(shipped_config());
  command->add_option("--workload,-w", options->workload_path, "Workload YAML or ONNX")
      ->required()
      ->transform(shipped_workload());
  command->add_option("--set", options->overrides, "Override a config key of every config: key.path=value");
  command
      ->add_option("--blackthorn-models", options->blackthorn_models,
                   "Folder of `ergon profile blackthorn` models to add their latency estimate")
      ->check(CLI::ExistingDirectory);
  add_format_option(*command, options->format, {"cnnergy-json"},
                    "cnnergy-json (the simulation beside CNNergy, by component)");
  add_report_out_option(*command, options->out_dir, "comparison");
  add_simulation_options(*command, options->simulation);
  add_progress_options(*command);
  command->callback([options] { run_compare(*options); });
}

ERGON_REGISTER(CliCommand, "compare", CliCommand{register_compare_command}, 30)

}  // namespace ergon
