#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "arch/importers/scalesim_config.hpp"
#include "common/atomic_file.hpp"
#include "network/importers/scalesim_topology.hpp"
#include "sim/commands/commands.hpp"
#include "sim/data_paths.hpp"
#include "sim/run_observers.hpp"
#include "sim/run_report.hpp"
#include "sim/simulation.hpp"

namespace ergon {
namespace {

struct RunOptions {
  std::string config_path = default_config_path();
  std::string workload_path;
  std::vector<std::string> overrides;
  std::string fidelity = "tlm";
  std::int64_t batch = 0;  // 0: each layer's own batch
  std::string out_dir;
  std::vector<std::string> traces;
  std::string scalesim_config;
  std::string scalesim_topology;
  bool scalesim_gemm = false;
  std::string mapping_path;
};

// SCALE-Sim inputs are converted into the output folder first, so the run is reproducible from them.
RunOptions with_scalesim_inputs(RunOptions options) {
  if (options.scalesim_topology.empty() && options.scalesim_config.empty()) {
    if (options.workload_path.empty()) throw std::runtime_error("give --workload (or --scalesim-topology)");
    return options;
  }
  if (options.scalesim_topology.empty() || options.scalesim_config.empty()) {
    throw std::runtime_error("--scalesim-config and --scalesim-topology go together");
  }
  // Both inputs are read before the output folder is made or anything is written.
  const ScaleSimConfig config = read_scalesim_config(options.scalesim_config);
  const auto kind = options.scalesim_gemm ? ScaleSimTopologyKind::kGemm : ScaleSimTopologyKind::kAuto;
  const ScaleSimTopology topology = read_scalesim_topology(options.scalesim_topology, kind);
  for (const auto* warnings : {&config.warnings, &topology.warnings}) {
    for (const std::string& warning : *warnings) std::cerr << "warning: " << warning << "\n";
  }
  std::filesystem::create_directories(options.out_dir);
  options.config_path = options.out_dir + "/scalesim_config.yaml";
  options.workload_path = options.out_dir + "/scalesim_workload.yaml";
  write_file_atomically(options.config_path, scalesim_config_yaml(config, options.scalesim_config));
  write_file_atomically(
      options.workload_path,
      scalesim_workload_yaml(topology.layers, std::filesystem::path(options.scalesim_topology).stem().string(),
                             options.scalesim_topology));
  return options;
}

SimulationResult simulate_into(const RunOptions& options, const AcceleratorConfig& config, const Workload& workload,
                               const std::optional<MappingFile>& mapping);

void run_simulation(const RunOptions& requested) {
  const RunOptions options = with_scalesim_inputs(requested);
  const AcceleratorConfig config = load_accelerator_config(options.config_path, options.overrides);
  const Workload workload = load_workload(options.workload_path);
  std::optional<MappingFile> mapping;
  if (!options.mapping_path.empty()) mapping = load_mapping_file(options.mapping_path);
  const bool created_out_dir = std::filesystem::create_directories(options.out_dir);
  SimulationResult result;
  try {
    result = simulate_into(options, config, workload, mapping);
  } catch (...) {
    // A run that fails leaves no folder of its own behind (e.g. a layer no mapping fits).
    std::error_code ignored;
    if (created_out_dir) std::filesystem::remove_all(options.out_dir, ignored);
    throw;
  }
  for (const auto& layer : result.layers) {  // the outputs stay for the investigation
    if (layer.output_mismatches > 0) {
      throw std::runtime_error("layer " + layer.name + ": the simulated output differs from the reference in " +
                               std::to_string(layer.output_mismatches) + " values");
    }
  }
}

SimulationResult simulate_into(const RunOptions& options, const AcceleratorConfig& config, const Workload& workload,
                               const std::optional<MappingFile>& mapping) {
  const EnergyTable table = load_energy_table(energy_table_path(config));
  RunOutputs outputs(options.out_dir, workload, options.traces, config.clock.frequency_mhz, config.clock.voltage_v,
                     config.dram.bandwidth_gbps);
  SimulationOptions simulation_options;
  if (options.batch > 0) simulation_options.batch = options.batch;
  simulation_options.mapping = mapping;
  if (options.fidelity == "cycle") simulation_options.fidelity = Fidelity::kCycleAccurate;
  simulation_options.observers = outputs.observers();
  const SimulationResult result = Simulation(config, table, workload, simulation_options).run();
  outputs.finish();
  write_file_atomically(options.out_dir + "/layers.csv", layers_csv(result));
  write_file_atomically(options.out_dir + "/report.json",
                        run_json(result, config, workload, options.fidelity).dump(2) + "\n");
  std::cout << run_table(result) << "wrote " << options.out_dir << "/{report.json,layers.csv,activity.csv}\n";
  return result;
}

}  // namespace

void register_run_command(CLI::App& app) {
  CLI::App* run = app.add_subcommand("run", "Simulate a workload on an accelerator (SystemC)");
  auto options = std::make_shared<RunOptions>();
  run->add_option("--config,-c", options->config_path, "Accelerator config YAML")
      ->capture_default_str()
      ->check(CLI::ExistingFile);
  run->add_option("--workload,-w", options->workload_path, "Workload YAML")->check(CLI::ExistingFile);
  run->add_option("--scalesim-config", options->scalesim_config, "A SCALE-Sim .cfg instead of --config")
      ->check(CLI::ExistingFile);
  run->add_option("--scalesim-topology", options->scalesim_topology, "A SCALE-Sim topology CSV instead of --workload")
      ->check(CLI::ExistingFile);
  run->add_flag("--scalesim-gemm", options->scalesim_gemm,
                "The SCALE-Sim topology lists GEMMs (Layer, M, N, K); without it the header tells");
  run->add_option("--set", options->overrides, "Override a config key: key.path=value (repeatable)");
  run->add_option("--fidelity", options->fidelity,
                  "tlm: transaction level; cycle: cycle-accurate PE array on real values, outputs checked")
      ->check(CLI::IsMember({"tlm", "cycle"}))
      ->capture_default_str();
  run->add_option("--batch", options->batch, "Images processed together by every layer (default: the workload's)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 20));
  run->add_option("--mapping", options->mapping_path, "Mapping file pinning parameters per layer (docs/mapping.md)")
      ->check(CLI::ExistingFile);
  run->add_option("--out,-o", options->out_dir, "Output folder")->required();
  run->add_option("--trace", options->traces,
                  "Also write trace.vcd (GTKWave) and/or trace.json (Chrome/Perfetto timeline); repeatable")
      ->check(CLI::IsMember({"vcd", "perfetto"}));
  run->callback([options] { run_simulation(*options); });
}

}  // namespace ergon
