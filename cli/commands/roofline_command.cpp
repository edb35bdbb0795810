// `ergon roofline`: each simulated layer's arithmetic intensity (operations per DRAM byte) against its
// achieved throughput, under the config's compute ceiling (compute_ceiling_gops) and bandwidth ceiling
// (intensity x DRAM bandwidth), as in ARADA's Figure 3. Writes roofline.csv, a gnuplot script and, when
// gnuplot is installed, roofline.png.
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands/cli_checks.hpp"
#include "cli/commands/commands.hpp"
#include "cli/commands/output.hpp"
#include "common/atomic_file.hpp"
#include "common/gnuplot.hpp"
#include "common/output_folder.hpp"
#include "common/text.hpp"
#include "power/estimators/roofline.hpp"
#include "sim/data_paths.hpp"
#include "sim/simulation.hpp"

namespace ergon {
namespace {

struct RooflineOptions {
  std::string config_path = default_config_path();
  std::string workload_path;
  std::vector<std::string> overrides;
  SimulationChoice simulation;  // --batch, --fidelity
  std::string out_dir;
  std::string format = "table";
};

std::string gnuplot_script(double peak_gops, double bandwidth_gbps, const std::string& title) {
  return fmt::format(R"(# Roofline of {2}: plot with `gnuplot roofline.gp` (writes roofline.png)
set terminal pngcairo size 1000,700 noenhanced
set output 'roofline.png'
set datafile separator ','
set logscale xy
set xlabel 'arithmetic intensity (operations per DRAM byte)'
set ylabel 'achieved throughput (GOPS)'
set title 'Roofline of {2}: compute ceiling {0:.1f} GOPS, DRAM {1:.2f} GB/s'
set key left top title 'bound by the roofline'
set grid
roof(x) = (x * {1} < {0}) ? x * {1} : {0}
plot [0.01:10000] roof(x) title 'roofline' lw 2 lc rgb 'black', \
  'roofline.csv' using (strcol(9) eq 'compute' ? $6 : 1/0):7 skip 1 title 'compute-bound layers' pt 7 lc rgb 'blue', \
  'roofline.csv' using (strcol(9) eq 'memory' ? $6 : 1/0):7 skip 1 title 'memory-bound layers' pt 5 lc rgb 'red'
)",
                     peak_gops, bandwidth_gbps, title);
}

void run_roofline(const RooflineOptions& options) {
  OutputFolder out(output_target(options.out_dir, "roofline"), "--out",
                   {"roofline.csv", "roofline.json", "roofline.gp", "roofline.png"},
                   {options.config_path, options.workload_path});
  const AcceleratorConfig config = load_accelerator_config(options.config_path, options.overrides);
  out.add_inputs({energy_table_path(config)});
  const EnergyTable table = load_energy_table(energy_table_path(config));
  const Workload workload = load_workload(options.workload_path);
  refuse_workload_without_work(workload);
  const SimulationOptions simulation_options = ergon::simulation_options(options.simulation);
  const SimulationResult result = Simulation(config, table, workload, simulation_options).run();

  const double peak_gops = compute_ceiling_gops(config);
  std::string csv =
      "layer,op,operations,dram_bytes,cycles,intensity_ops_per_byte,achieved_gops,"
      "attainable_gops,bound,simulated_bound\n";
  std::string table_text = fmt::format(
      "{} on {}: compute ceiling {:.1f} GOPS (2 x {} PEs x {} MHz), DRAM {} GB/s\n{:<28} {:>12} {:>12} {:>12} {:>8} "
      "{:>14}\n",
      workload.name(), config.name, peak_gops, result.pe_count, config.clock.frequency_mhz, config.dram.bandwidth_gbps,
      "layer", "ops/byte", "GOPS", "roof GOPS", "bound", "sim bound");
  nlohmann::ordered_json layers_json = nlohmann::ordered_json::array();
  for (const LayerResult& layer : result.layers) {
    if (!layer.executed || layer.cycles == 0) continue;
    const double operations = 2.0 * static_cast<double>(layer.macs);
    const double bytes = static_cast<double>(layer.dram_bytes());
    const double seconds = static_cast<double>(layer.cycles) / (config.clock.frequency_mhz * 1e6);
    const double intensity = bytes > 0 ? operations / bytes : 0.0;
    const double achieved = operations / seconds / 1e9;
    const double memory_roof_gops = intensity * config.dram.bandwidth_gbps;
    const double attainable = std::min(peak_gops, memory_roof_gops);
    // The roofline's own verdict: left of the ridge point the memory roof is the lower one. The simulator's
    // label (which unit was busy longer) is kept beside it; the two differ for layers whose DRAM traffic
    // is bursty rather than spread over the layer.
    const char* bound = memory_roof_gops < peak_gops ? "memory" : "compute";
    const std::string simulated_bound = result.bound_name(layer);  // the busiest resource
    csv += fmt::format("{},{},{},{},{},{},{},{},{},{}\n", csv_quoted(layer.name), layer.op, operations, bytes,
                       layer.cycles, intensity, achieved, attainable, bound, simulated_bound);
    table_text += fmt::format("{:<28} {:>12.3f} {:>12.3f} {:>12.3f} {:>8} {:>14}\n", layer.name, intensity, achieved,
                              attainable, bound, simulated_bound);
    layers_json.push_back({{"layer", layer.name},
                           {"op", layer.op},
                           {"operations", operations},
                           {"dram_bytes", bytes},
                           {"cycles", layer.cycles},
                           {"intensity_ops_per_byte", intensity},
                           {"achieved_gops", achieved},
                           {"attainable_gops", attainable},
                           {"bound", bound},
                           {"simulated_bound", simulated_bound}});
  }
  const nlohmann::ordered_json json = {{"workload", workload.name()},
                                       {"config", config.name},
                                       {"compute_ceiling_gops", peak_gops},
                                       {"dram_bandwidth_gbps", config.dram.bandwidth_gbps},
                                       {"layers", layers_json}};
  write_file_atomically(out.staged("roofline.csv"), csv);
  write_file_atomically(out.staged("roofline.gp"),
                        gnuplot_script(peak_gops, config.dram.bandwidth_gbps, workload.name() + " on " + config.name));
  const std::string json_text = json.dump(2) + "\n";
  write_file_atomically(out.staged("roofline.json"), json_text);
  const bool plotted = !options.out_dir.empty() && run_gnuplot(out.staging_folder(), "roofline.gp");
  const std::vector<std::string> written = commit_output(out, options.out_dir);
  print_report({table_text, json_text, csv}, options.format);  // after the files, as everywhere
  note_written(options.out_dir, written, plotted ? "" : " (install gnuplot for roofline.png)");
}

}  // namespace

void register_roofline_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand("roofline", "Per-layer roofline: arithmetic intensity vs achieved GOPS");
  auto options = std::make_shared<RooflineOptions>();
  command->footer("Example:\n  ergon roofline -c edge_tpu -w alexnet");
  command->add_option("--config,-c", options->config_path, "Accelerator config YAML")
      ->capture_default_str()
      ->transform(shipped_config());
  command->add_option("--workload,-w", options->workload_path, "Workload YAML")
      ->required()
      ->transform(shipped_workload());
  command->add_option("--set", options->overrides, "Override a config key: key.path=value (repeatable)");
  add_simulation_options(*command, options->simulation);
  command->add_option("--out,-o", options->out_dir,
                      "Output folder: roofline.csv, roofline.json, roofline.gp/png/svg (without it: print only)");
  add_format_option(*command, options->format);
  add_progress_options(*command);
  command->callback([options] { run_roofline(*options); });
}

ERGON_REGISTER(CliCommand, "roofline", CliCommand{register_roofline_command}, 50)

}  // namespace ergon
