// `ergon dvfs`: ARADA's per-layer allocation for one workload, re-simulated (docs/arada.md).
// `ergon dvfs-study`: ARADA's grid of workloads, accelerators, DRAM technologies and schemes.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <memory>

#include "cli/commands/cli_checks.hpp"
#include "cli/commands/commands.hpp"
#include "cli/commands/output.hpp"
#include "common/atomic_file.hpp"
#include "common/finite_json.hpp"
#include "common/gnuplot.hpp"
#include "common/output_folder.hpp"
#include "sim/data_paths.hpp"
#include "sim/dvfs/dvfs_pareto.hpp"
#include "sim/dvfs/dvfs_run.hpp"
#include "sim/parallel/process_pool.hpp"
#include "sim/run_observers.hpp"
#include "sim/run_report.hpp"
#include "studies/arada/dvfs_study.hpp"

namespace ergon {
namespace {

struct DvfsOptions {
  std::string config_path = default_config_path();
  std::string workload_path;
  std::vector<std::string> overrides;
  std::string scheme = "vf-oh-q";
  std::string out_dir;
  std::vector<std::string> traces;
  std::string activity = "intervals";
  std::size_t activity_max_rows = kDefaultActivityMaxRows;
  double deadline_ms = 0;
  SimulationChoice simulation;
  bool pareto = false;
  std::string format = "table";
  double max_output_mb = kDefaultMaxOutputMb;
};

void run_dvfs_command(DvfsOptions options) {
  refuse_without_out(options.out_dir, "--trace", !options.traces.empty());
  refuse_without_out(options.out_dir, "--pareto (pareto.csv and its plot)", options.pareto);
  if (options.out_dir.empty()) options.activity = "none";  // activity.csv is a file only
  // Staged, moved into --out only when everything is written (common/output_folder).
  OutputFolder out(output_target(options.out_dir, "dvfs"), "--out",
                   {"report.json", "layers.csv", "rti_layers.csv", "activity.csv", "trace.vcd", "trace.json",
                    "pareto.csv", "pareto.gp", "pareto.png", "pareto.svg"},
                   {options.config_path, options.workload_path});
  AcceleratorConfig loaded = load_accelerator_config(options.config_path, options.overrides);
  out.add_inputs({energy_table_path(loaded)});
  const Chip chip(std::move(loaded));
  const AcceleratorConfig& config = chip.config();
  Workload workload = load_workload(options.workload_path);
  apply_batch(options.simulation, workload);
  refuse_workload_without_work(workload);
  const std::uint64_t trace_bytes =
      trace_allowance_bytes(options.max_output_mb, options.activity, options.activity_max_rows, workload);
  const DvfsScheme scheme = parse_dvfs_scheme(options.scheme);
  const Fidelity fidelity = parse_fidelity(options.simulation.fidelity);
  const SimulationResult race_to_idle = simulate_race_to_idle(chip, workload, fidelity);
  if (const std::string why = unreachable_deadline(options.deadline_ms * 1e6, race_to_idle.total.time_ns);
      !why.empty()) {
    std::cerr << "error: " << why << "\n";  // not thrown: see command_exit_status()
    command_exit_status() = 1;
    return;
  }
  const DvfsOutcome outcome = run_dvfs(chip, workload, scheme, race_to_idle, options.deadline_ms * 1e6);
  std::vector<ParetoPoint> front;
  if (options.pareto) front = dvfs_pareto(chip, workload, race_to_idle);
  // The final schedule once more, streaming its activity (frequency and voltage per interval) and traces.
  RunOutputs outputs(out.staging_folder(), workload, options.traces, config, parse_activity_detail(options.activity),
                     options.activity_max_rows, trace_bytes);
  SimulationOptions replay = scheduled_options(outcome.allocation, fidelity);
  replay.observers = outputs.observers();
  outputs.finish(run_pipeline(chip, workload, replay));
  if (outputs.trace_budget().exceeded())
    return report_output_over_budget(outputs.trace_budget(), options.max_output_mb, options.out_dir);
  const nlohmann::json report = dvfs_json(outcome, config, workload);
  if (const auto bad = first_non_finite(report)) return report_non_finite(*bad, {config.file, chip.table().file});
  const ReportForms forms{dvfs_table(outcome), report.dump(2) + "\n", layers_csv(outcome.scheduled)};
  write_file_atomically(out.staged("report.json"), forms.json);
  write_file_atomically(out.staged("layers.csv"), forms.csv);
  write_file_atomically(out.staged("rti_layers.csv"), layers_csv(outcome.race_to_idle));
  bool plotted = true;
  if (options.pareto) {
    write_file_atomically(out.staged("pareto.csv"), pareto_csv(front));
    write_file_atomically(out.staged("pareto.gp"),
                          pareto_gnuplot(fmt::format("{} on {}: energy against latency, every scheme and deadline",
                                                     workload.name(), config.name)));
    plotted = options.out_dir.empty() || run_gnuplot(out.staging_folder(), "pareto.gp");
  }
  const std::vector<std::string> written = commit_output(out, options.out_dir);
  print_report(forms, options.format);  // after the files: a reader that stops early cannot cost them
  note_written(options.out_dir, written, plotted ? "" : " (no pareto.png: gnuplot missing or failed)");
}

struct DvfsStudyArguments {
  DvfsStudyOptions study;
  SimulationChoice simulation;
  std::string out_dir;
  std::string format = "table";
};

void run_dvfs_study_command(DvfsStudyArguments arguments) {
  arguments.study.batch = arguments.simulation.batch;
  arguments.study.fidelity = parse_fidelity(arguments.simulation.fidelity);
  // Staged (common/output_folder): an interrupted or failed study leaves nothing in --out.
  OutputFolder out(output_target(arguments.out_dir, "dvfs-study"), "--out",
                   {"study.csv", "averages.csv", "study.gp", "study.png", "study.svg"}, {});
  const DvfsStudy study = run_dvfs_study(arguments.study);
  const bool plotted = write_dvfs_study(study, arguments.study, out.staging_folder(), !arguments.out_dir.empty());
  const std::string title = fmt::format(
      "ARADA's grid ({} traffic model, {}{}): mean over {} workloads\n", arguments.study.traffic_model,
      fidelity_title(arguments.study.fidelity),
      arguments.study.batch > 0 ? fmt::format(", batch {}", arguments.study.batch) : "", study.workloads.size());
  const ReportForms forms{title + csv_as_table(study.averages_csv),
                          dvfs_study_json(study, arguments.study).dump(2) + "\n", study.averages_csv};
  const std::vector<std::string> written = commit_output(out, arguments.out_dir);
  print_report(forms, arguments.format);  // after the files: a reader that stops early cannot cost them
  note_written(arguments.out_dir, written,
               plotted || arguments.out_dir.empty() ? "" : " (install gnuplot for the plots)");
}

}  // namespace

void register_dvfs_command(CLI::App& app) {
  CLI::App* dvfs = app.add_subcommand("dvfs", "ARADA per-layer DVFS: allocate levels, re-simulate, report savings");
  auto options = std::make_shared<DvfsOptions>();
  add_simulation_options(*dvfs, options->simulation);
  dvfs->footer("Example:\n  ergon dvfs -c edge_tpu -w resnet18 --scheme vf-oh-q");
  dvfs->add_option("--config,-c", options->config_path, "Accelerator config YAML")
      ->capture_default_str()
      ->transform(shipped_config());
  dvfs->add_option("--workload,-w", options->workload_path, "Workload YAML")->required()->transform(shipped_workload());
  dvfs->add_option("--set", options->overrides, "Override a config key: key.path=value (repeatable)");
  dvfs->add_option("--scheme", options->scheme,
                   "rti (race to idle), ideal (continuous, free switching), vf-oh (switch overhead), vf-oh-q "
                   "(overhead and quantised levels)")
      ->transform(CLI::IsMember(dvfs_scheme_names(), CLI::ignore_case))
      ->capture_default_str();
  dvfs->add_option("--out,-o", options->out_dir,
                   "Output folder: report.json, layers.csv (the DVFS run), rti_layers.csv (race to idle), activity.csv "
                   "(without it: print only)");
  add_format_option(*dvfs, options->format);
  add_progress_options(*dvfs);
  add_max_output_option(*dvfs, options->max_output_mb);
  add_activity_options(*dvfs, options->activity, options->activity_max_rows);
  dvfs->add_option("--deadline-ms", options->deadline_ms,
                   "Spend the slack up to this inference latency (ms; at least race to idle's) instead of keeping "
                   "race to idle's latency")
      ->check(CLI::PositiveNumber);
  dvfs->add_flag("--pareto", options->pareto,
                 "Also write pareto.csv (+ pareto.gp/png): energy against latency for every scheme at deadlines of "
                 "1-2x race to idle's latency");
  dvfs->add_option("--trace", options->traces, "Also write trace.vcd and/or trace.json of the DVFS run; repeatable")
      ->transform(CLI::IsMember({"vcd", "perfetto"}, CLI::ignore_case));
  dvfs->callback([options] { run_dvfs_command(*options); });

  CLI::App* study = app.add_subcommand("dvfs-study", "ARADA's grid: 9 workloads x Edge/HPC TPU x DRAM x schemes");
  auto study_options = std::make_shared<DvfsStudyArguments>();
  study->footer("Example:\n  ergon dvfs-study -w resnet18 --out results/arada");
  study_options->study.jobs = available_cores();
  study->add_option("--out,-o", study_options->out_dir,
                    "Output folder: study.csv, averages.csv, study.gp/png/svg (without it: print only)");
  add_format_option(*study, study_options->format);
  study->add_option("--jobs,-j", study_options->study.jobs, "Worker processes")
      ->capture_default_str()
      ->check(CLI::Range(1u, kMaxWorkerProcesses));
  study->add_option("--workload,-w", study_options->study.workloads,
                    "Limit to these workloads (names under workloads/, repeatable; default: ARADA's nine)");
  study
      ->add_option("--traffic-model", study_options->study.traffic_model,
                   "physical: Ergon's memory system; scalesim: SCALE-Sim v2's, as ARADA's figures assume "
                   "(docs/arada.md)")
      ->transform(CLI::IsMember(dvfs_study_traffic_models(), CLI::ignore_case))
      ->capture_default_str();
  study->add_option("--set", study_options->study.overrides,
                    "Override a config key of every run, after the traffic model's: key.path=value (repeatable)");
  add_simulation_options(*study, study_options->simulation);
  add_progress_options(*study);
  study->callback([study_options] { run_dvfs_study_command(*study_options); });
}

ERGON_REGISTER(CliCommand, "dvfs", CliCommand{register_dvfs_command}, 60)

}  // namespace ergon
