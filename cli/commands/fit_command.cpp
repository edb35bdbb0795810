// `ergon fit lahmer`: Lahmer et al.'s model form fitted to simulated layer energies, or to a user's measured
// layer energies with --measurements (docs/lahmer.md).
#include <memory>
#include <stdexcept>

#include "cli/commands/cli_checks.hpp"
#include "cli/commands/commands.hpp"
#include "cli/commands/output.hpp"
#include "common/output_folder.hpp"
#include "sim/data_paths.hpp"
#include "sim/parallel/process_pool.hpp"
#include "studies/lahmer/lahmer_fit_run.hpp"

namespace ergon {
namespace {

struct FitOptions {
  std::string config_path = default_config_path();
  std::vector<std::string> overrides;
  SimulationChoice simulation;  // --batch, --fidelity (simulated)
  std::string out_dir;          // empty: print only
  std::string format = "table";
  unsigned jobs = available_cores();
  std::string measurements_path;  // fit measured energies instead of simulating
  std::string board = "measured";
  std::string kclc = "exact";
  std::string kclc_padding = "ignore";
};

void run_fit_lahmer_measurements(const FitOptions& options) {
  KclcOptions kclc;
  try {
    kclc = make_kclc_options(parse_kclc_form(options.kclc), parse_kclc_padding(options.kclc_padding));
  } catch (const std::invalid_argument& error) {
    throw std::runtime_error(error.what());
  }
  // Staged: all or nothing, never over the measurements (common/output_folder); without --out nothing is
  // kept, but the files are still written and checked.
  OutputFolder out(output_target(options.out_dir, "fit-lahmer"), "--out",
                   {"parameters.yaml", "fit.json", "residuals.csv"}, {options.measurements_path});
  const auto rows = read_lahmer_measurements(options.measurements_path, kclc);
  const LahmerMeasuredFit fit = fit_lahmer_measurements(rows, options.measurements_path, kclc);
  const ReportForms forms = lahmer_measured_fit_forms(fit, options.board);
  write_lahmer_measured_fit(fit, forms, out.staging_folder(), options.board);
  const std::vector<std::string> written = commit_output(out, options.out_dir);
  print_report(forms, options.format);
  note_written(options.out_dir, written, lahmer_parameters_use(fit, out.final_path("parameters.yaml"), options.board));
}

void run_fit_lahmer(const FitOptions& options) {
  if (!options.measurements_path.empty()) return run_fit_lahmer_measurements(options);
  OutputFolder out(output_target(options.out_dir, "fit-lahmer"), "--out", {"samples.csv", "fit.json", "lahmer_fit.gp"},
                   {options.config_path});
  const AcceleratorConfig config = load_accelerator_config(options.config_path, options.overrides);
  out.add_inputs({energy_table_path(config)});
  const EnergyTable table = load_energy_table(energy_table_path(config));
  const LahmerFitRun run = run_lahmer_fit(config, table, simulation_options(options.simulation), options.jobs);
  const ReportForms forms = lahmer_fit_forms(run);
  // The plots are files only: a print-only run leaves them out.
  const std::string remark = write_lahmer_fit(run, forms, out.staging_folder(), !options.out_dir.empty());
  const std::vector<std::string> written = commit_output(out, options.out_dir);
  print_report(forms, options.format);
  note_written(options.out_dir, written, remark);
}

}  // namespace

void register_profile_command(CLI::App& app) {
  app.add_subcommand("profile", "Build empirical latency models by measuring simulated layers")->require_subcommand(1);
}

void register_fit_command(CLI::App& app) {
  CLI::App* fit = app.add_subcommand("fit", "Fit empirical model forms to simulated or measured layers");
  fit->require_subcommand(1);
  CLI::App* lahmer = fit->add_subcommand(
      "lahmer", "Fit Lahmer et al.'s E_conv = KCLC (a_c + b_c ofm), E_fc = a_f CLF to simulations or measurements");
  auto options = std::make_shared<FitOptions>();
  lahmer->footer("Example:\n  ergon fit lahmer -c edge_tpu --out results/lahmer");
  CLI::Option* config = lahmer->add_option("--config,-c", options->config_path, "Accelerator config YAML (simulated)")
                            ->capture_default_str()
                            ->transform(shipped_config());
  CLI::Option* set =
      lahmer->add_option("--set", options->overrides, "Override a config key: key.path=value (repeatable)");
  add_simulation_options(*lahmer, options->simulation);
  lahmer->add_option("--out,-o", options->out_dir,
                     "Output folder: samples.csv, fit.json and plots; with --measurements parameters.yaml, fit.json, "
                     "residuals.csv (without it: print only)");
  add_format_option(*lahmer, options->format);
  CLI::Option* jobs = lahmer->add_option("--jobs,-j", options->jobs, "Worker processes (simulated)")
                          ->capture_default_str()
                          ->check(CLI::Range(1u, kMaxWorkerProcesses));
  CLI::Option* measurements =
      lahmer
          ->add_option("--measurements,-m", options->measurements_path,
                       "CSV of measured layer energies to fit instead of simulating (format: docs/lahmer.md)")
          ->check(input_file())
          ->excludes(config, set, jobs)
          ->excludes(lahmer->get_option("--batch"), lahmer->get_option("--fidelity"));
  lahmer->add_option("--board,-b", options->board, "Board name in the written parameters.yaml (with --measurements)")
      ->capture_default_str()
      ->needs(measurements);
  lahmer->add_option("--kclc", options->kclc, "KCLC form of eq. 2 (with --measurements): exact or approximate")
      ->transform(CLI::IsMember({"exact", "approximate"}, CLI::ignore_case))
      ->capture_default_str()
      ->needs(measurements);
  lahmer
      ->add_option("--kclc-padding", options->kclc_padding,
                   "Padding in exact KCLC (with --measurements): ignore (eq. 2 as printed) or include")
      ->transform(CLI::IsMember({"ignore", "include"}, CLI::ignore_case))
      ->capture_default_str()
      ->needs(measurements);
  add_progress_options(*lahmer);
  lahmer->callback([options] { run_fit_lahmer(*options); });
}

ERGON_REGISTER(CliCommand, "fit", CliCommand{register_fit_command}, 80)
ERGON_REGISTER(CliCommand, "profile", CliCommand{register_profile_command}, 90)

}  // namespace ergon
