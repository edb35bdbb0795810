#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "arch/importers/scalesim_config.hpp"
#include "cli/commands/cli_checks.hpp"
#include "cli/commands/commands.hpp"
#include "cli/commands/output.hpp"
#include "common/atomic_file.hpp"
#include "common/finite_json.hpp"
#include "common/output_folder.hpp"
#include "network/importers/scalesim_topology.hpp"
#include "sim/data_paths.hpp"
#include "sim/run_observers.hpp"
#include "sim/run_pipeline.hpp"
#include "sim/run_report.hpp"
#include "sim/simulation.hpp"

namespace ergon {
namespace {

struct RunOptions {
  std::string config_path = default_config_path();
  std::string workload_path;
  std::vector<std::string> overrides;
  SimulationChoice simulation;  // --batch, --fidelity
  std::string out_dir;
  std::vector<std::string> traces;
  std::string activity = "intervals";
  std::size_t activity_max_rows = kDefaultActivityMaxRows;
  std::string scalesim_config;
  std::string scalesim_topology;
  bool scalesim_gemm = false;
  std::string mapping_path;
  std::string format = "table";
  double max_output_mb = kDefaultMaxOutputMb;
};

constexpr const char* kScaleSimConfigFile = "scalesim_config.yaml";
constexpr const char* kScaleSimWorkloadFile = "scalesim_workload.yaml";

void check_scalesim_options(const RunOptions& options) {
  if (options.scalesim_topology.empty() && options.scalesim_config.empty()) {
    if (options.workload_path.empty()) throw UsageError("give --workload (or --scalesim-topology)");
    return;
  }
  if (options.scalesim_topology.empty() || options.scalesim_config.empty()) {
    throw UsageError("--scalesim-config and --scalesim-topology go together");
  }
}

// Every file a run reads that is named before the config is loaded.
std::vector<std::string> named_inputs(const RunOptions& options) {
  std::vector<std::string> inputs;
  for (const std::string* path : {&options.config_path, &options.workload_path, &options.mapping_path,
                                  &options.scalesim_config, &options.scalesim_topology}) {
    if (!path->empty()) inputs.push_back(*path);
  }
  return inputs;
}

std::vector<std::string> planned_outputs(const RunOptions& options) {
  std::vector<std::string> names = {"report.json", "layers.csv"};
  if (parse_activity_detail(options.activity) != ActivityDetail::kNone) names.push_back("activity.csv");
  for (const std::string& trace : options.traces) names.push_back(trace == "vcd" ? "trace.vcd" : "trace.json");
  if (!options.scalesim_topology.empty()) {
    names.push_back(kScaleSimConfigFile);
    names.push_back(kScaleSimWorkloadFile);
  }
  return names;
}

struct RunInputs {
  AcceleratorConfig config;
  Workload workload;
};

// SCALE-Sim inputs are converted into the output folder, so the run is reproducible from them; they are
// read back from the staging folder and recorded under their final names.
RunInputs scalesim_inputs(const RunOptions& options, const OutputFolder& out) {
  const ScaleSimConfig config = read_scalesim_config(options.scalesim_config);
  const auto kind = options.scalesim_gemm ? ScaleSimTopologyKind::kGemm : ScaleSimTopologyKind::kAuto;
  const ScaleSimTopology topology = read_scalesim_topology(options.scalesim_topology, kind);
  for (const auto* warnings : {&config.warnings, &topology.warnings}) {
    for (const std::string& warning : *warnings) std::cerr << "warning: " << warning << "\n";
  }
  write_file_atomically(out.staged(kScaleSimConfigFile), scalesim_config_yaml(config, options.scalesim_config));
  write_file_atomically(
      out.staged(kScaleSimWorkloadFile),
      scalesim_workload_yaml(topology.layers, std::filesystem::path(options.scalesim_topology).stem().string(),
                             options.scalesim_topology));
  RunInputs inputs{load_accelerator_config(out.staged(kScaleSimConfigFile), options.overrides),
                   load_workload(out.staged(kScaleSimWorkloadFile))};
  inputs.config.file = out.final_path(kScaleSimConfigFile);
  inputs.workload.set_file(out.final_path(kScaleSimWorkloadFile));
  return inputs;
}

RunInputs load_inputs(const RunOptions& options, const OutputFolder& out) {
  if (!options.scalesim_topology.empty()) return scalesim_inputs(options, out);
  return {load_accelerator_config(options.config_path, options.overrides), load_workload(options.workload_path)};
}

// The result and the text for stdout (--format), or nothing when the run failed (reported).
std::optional<std::pair<SimulationResult, std::string>> simulate_into(const RunOptions& options,
                                                                      const AcceleratorConfig& config,
                                                                      const Workload& workload,
                                                                      const std::optional<MappingFile>& mapping,
                                                                      const OutputFolder& out);

// Without --out a run prints its report and writes nothing: its files are staged in a scratch folder
// that is never committed. Traces and activity.csv are files only, so they need --out.
void check_print_only_options(const RunOptions& options) {
  refuse_without_out(options.out_dir, "--trace", !options.traces.empty());
  refuse_without_out(options.out_dir, "--scalesim-topology (converted into the output folder)",
                     !options.scalesim_topology.empty());
}

void run_simulation(RunOptions options) {
  check_scalesim_options(options);
  check_print_only_options(options);
  if (options.out_dir.empty()) options.activity = "none";  // activity.csv is a file only
  // Every output is staged and moved into --out only when the run succeeds: a failed or interrupted run
  // writes nothing there (common/output_folder).
  OutputFolder out(output_target(options.out_dir, "run"), "--out", planned_outputs(options), named_inputs(options));
  const RunInputs inputs = load_inputs(options, out);
  refuse_workload_without_work(inputs.workload);
  out.add_inputs({energy_table_path(inputs.config)});
  std::optional<MappingFile> mapping;
  if (!options.mapping_path.empty()) mapping = load_mapping_file(options.mapping_path);
  std::optional<std::pair<SimulationResult, std::string>> result;
  try {
    result = simulate_into(options, inputs.config, inputs.workload, mapping, out);
  } catch (const std::runtime_error& error) {  // a file that could not be written: named by its final path
    if (out.shown(error.what()) == error.what()) throw;
    throw std::runtime_error(out.shown(error.what()));
  }
  if (!result) return;  // reported; nothing is written
  const std::vector<std::string> written = commit_output(out, options.out_dir);
  std::cout << result->second << std::flush;  // after the files: a reader that stops early cannot cost them
  note_written(options.out_dir, written);
  for (const std::string& note : result->first.energy_notes) std::cerr << "note: energy table: " << note << "\n";
  for (const auto& layer : result->first.layers) {  // the outputs stay for the investigation
    if (layer.output_mismatches > 0) {
      throw std::runtime_error("layer " + layer.name + ": the simulated output differs from the reference in " +
                               std::to_string(layer.output_mismatches) + " values");
    }
  }
}

// The run pipeline's write stage for `ergon run`: report.json and layers.csv, staged; the text for stdout, or
// nothing when a check stopped the writing (reported).
std::optional<std::string> write_run_reports(const SimulationResult& result, const Chip& chip, const Workload& workload,
                                             const RunOptions& options, RunOutputs& outputs, const OutputFolder& out) {
  const AcceleratorConfig& config = chip.config();
  outputs.finish(result);
  if (outputs.trace_budget().exceeded()) {
    report_output_over_budget(outputs.trace_budget(), options.max_output_mb, options.out_dir);
    return std::nullopt;
  }
  const nlohmann::json report = run_json(result, config, workload, options.simulation.fidelity);
  if (const auto bad = first_non_finite(report)) {
    report_non_finite(*bad, {config.file, chip.table().file});
    return std::nullopt;
  }
  const ReportForms forms{run_table(result), report.dump(2) + "\n", layers_csv(result)};
  write_file_atomically(out.staged("layers.csv"), forms.csv);
  write_file_atomically(out.staged("report.json"), forms.json);
  if (const auto bad = out.first_non_finite()) {
    report_non_finite(*bad, {config.file, chip.table().file});
    return std::nullopt;
  }
  return report_in_format(forms, options.format);
}

std::optional<std::pair<SimulationResult, std::string>> simulate_into(const RunOptions& options,
                                                                      const AcceleratorConfig& config,
                                                                      const Workload& workload,
                                                                      const std::optional<MappingFile>& mapping,
                                                                      const OutputFolder& out) {
  const Chip chip(config);
  RunOutputs outputs(
      out.staging_folder(), workload, options.traces, config, parse_activity_detail(options.activity),
      options.activity_max_rows,
      trace_allowance_bytes(options.max_output_mb, options.activity, options.activity_max_rows, workload));
  SimulationOptions simulation_options = ergon::simulation_options(options.simulation);
  simulation_options.mapping = mapping;
  simulation_options.observers = outputs.observers();
  std::optional<std::string> shown;
  SimulationResult result = run_pipeline(chip, workload, simulation_options, [&](const SimulationResult& priced) {
    shown = write_run_reports(priced, chip, workload, options, outputs, out);
  });
  if (!shown) return std::nullopt;
  return std::make_pair(std::move(result), std::move(*shown));
}

}  // namespace

void register_run_command(CLI::App& app) {
  CLI::App* run = app.add_subcommand("run", "Simulate a workload on an accelerator (SystemC)");
  auto options = std::make_shared<RunOptions>();
  run->footer("Example:\n  ergon run -c eyeriss -w alexnet --batch 4 --out results/alexnet");
  run->add_option("--config,-c", options->config_path, "Accelerator config YAML")
      ->capture_default_str()
      ->transform(shipped_config());
  run->add_option("--workload,-w", options->workload_path, "Workload YAML")->transform(shipped_workload());
  run->add_option("--scalesim-config", options->scalesim_config, "A SCALE-Sim .cfg instead of --config")
      ->check(input_file());
  run->add_option("--scalesim-topology", options->scalesim_topology, "A SCALE-Sim topology CSV instead of --workload")
      ->check(input_file());
  run->add_flag("--scalesim-gemm", options->scalesim_gemm,
                "The SCALE-Sim topology lists GEMMs (Layer, M, N, K); without it the header tells");
  run->add_option("--set", options->overrides, "Override a config key: key.path=value (repeatable)");
  add_simulation_options(*run, options->simulation);
  run->add_option("--mapping", options->mapping_path, "Mapping file pinning parameters per layer (docs/mapping.md)")
      ->check(input_file());
  run->add_option("--out,-o", options->out_dir,
                  "Output folder: report.json, layers.csv, activity.csv, traces (without it: print only)");
  add_format_option(*run, options->format);
  add_progress_options(*run);
  add_max_output_option(*run, options->max_output_mb);
  add_activity_options(*run, options->activity, options->activity_max_rows);
  run->add_option("--trace", options->traces,
                  "Also write trace.vcd (GTKWave) and/or trace.json (Chrome/Perfetto timeline); repeatable")
      ->transform(CLI::IsMember({"vcd", "perfetto"}, CLI::ignore_case));
  run->callback([options] { run_simulation(*options); });
}

ERGON_REGISTER(CliCommand, "run", CliCommand{register_run_command}, 10)

}  // namespace ergon
