// `ergon sweep` and `ergon sweep-merge`: design-space sweeps over numeric config keys (docs/sweep.md).
#include <iostream>
#include <memory>

#include "cli/commands/cli_checks.hpp"
#include "cli/commands/commands.hpp"
#include "cli/commands/output.hpp"
#include "sim/data_paths.hpp"
#include "sim/parallel/process_pool.hpp"
#include "sim/sweep/sweep_run.hpp"

namespace ergon {
namespace {

struct SweepArguments {
  SweepOptions options;
  std::vector<std::string> parameters;
  std::string shard = "0/1";
  std::string fidelity = "tlm";
  bool list_points = false;
};

void run_sweep_command(SweepArguments& arguments) {
  SweepOptions& options = arguments.options;
  for (const std::string& text : arguments.parameters) options.parameters.push_back(parse_sweep_parameter(text));
  options.shard = parse_shard(arguments.shard);
  options.fidelity = parse_fidelity(arguments.fidelity);
  if (arguments.list_points) {
    std::cout << list_sweep_points(options);
    return;
  }
  if (options.out_dir.empty()) throw std::runtime_error("give --out (the sweep's results folder)");
  if (options.plot && options.parameters.size() != 1) {
    throw std::runtime_error("--plot draws energy against one swept key; this sweep has " +
                             std::to_string(options.parameters.size()));
  }
  run_sweep(options);
}

}  // namespace

void register_sweep_command(CLI::App& app) {
  CLI::App* sweep = app.add_subcommand("sweep", "Sweep config keys over workloads, in parallel processes");
  auto arguments = std::make_shared<SweepArguments>();
  SweepOptions& options = arguments->options;
  options.config_path = default_config_path();
  options.jobs = available_cores();
  sweep->add_option("--config,-c", options.config_path, "Accelerator config YAML")
      ->capture_default_str()
      ->check(input_file());
  sweep->add_option("--workload,-w", options.workload_paths, "Workload YAML (repeatable)")
      ->required()
      ->check(input_file());
  sweep
      ->add_option("--param,-p", arguments->parameters,
                   "key.path=SPEC: a list 1,2,4 or lpddr4,hbm2; a range lo:hi:step; a geometric range lo:hi:*2 "
                   "(repeatable: cartesian product)")
      ->required();
  sweep
      ->add_option("--max-output-mb", options.max_output_mb,
                   "Refuse a sweep whose results.csv could take more than this (estimated before it runs)")
      ->check(CLI::Range(0.001, 1e9))
      ->capture_default_str();
  sweep->add_option("--max-points", options.max_points, "Refuse a sweep with more points than this")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  sweep->add_option("--set", options.overrides, "Override a config key at every point: key.path=value (repeatable)");
  sweep->add_option("--out,-o", options.out_dir,
                    "Output folder: results.csv, sweep.json (kept point by point, for --resume)");
  sweep->add_option("--jobs,-j", options.jobs, "Worker processes")
      ->capture_default_str()
      ->check(CLI::Range(1u, kMaxWorkerProcesses));
  sweep->add_flag("--resume", options.resume, "Continue the sweep in --out, skipping its finished points");
  sweep->add_flag("--list-points", arguments->list_points, "Print the points (of this shard) and exit");
  sweep->add_option("--shard", arguments->shard, "I/N: run only the points whose index modulo N is I")
      ->capture_default_str();
  sweep->add_option("--fidelity", arguments->fidelity, "tlm or cycle")
      ->transform(CLI::IsMember({"tlm", "cycle"}, CLI::ignore_case))
      ->capture_default_str();
  sweep->add_flag("--reverse", options.reverse_order,
                  "Run the points last first (a determinism check: results.csv is byte-identical)");
  sweep->add_flag("--plot", options.plot, "Plot energy by component against the swept key (gnuplot PNG and SVG)");
  add_progress_options(*sweep);
  sweep->callback([arguments] { run_sweep_command(*arguments); });

  CLI::App* merge = app.add_subcommand("sweep-merge", "Merge the results of a sweep's shards");
  auto merge_dirs = std::make_shared<std::vector<std::string>>();
  auto merge_out = std::make_shared<std::string>();
  merge->add_option("shards", *merge_dirs, "The shards' --out folders")->required()->check(CLI::ExistingDirectory);
  merge->add_option("--out,-o", *merge_out, "Output folder: the merged results.csv and sweep.json")->required();
  merge->callback([merge_dirs, merge_out] { merge_sweeps(*merge_dirs, *merge_out); });
}

ERGON_REGISTER(CliCommand, "sweep", CliCommand{register_sweep_command}, 70)

}  // namespace ergon
