// `ergon profile blackthorn` builds Blackthorn's layer models on a config; `ergon estimate blackthorn`
// predicts a network's latency from them (docs/blackthorn.md).
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "cli/commands/cli_checks.hpp"
#include "cli/commands/commands.hpp"
#include "cli/commands/output.hpp"
#include "common/output_folder.hpp"
#include "common/output_paths.hpp"
#include "common/text.hpp"
#include "sim/data_paths.hpp"
#include "sim/parallel/process_pool.hpp"
#include "studies/blackthorn/blackthorn_run.hpp"

namespace ergon {
namespace {

using namespace blackthorn;

struct ProfileOptions {
  std::string config_path = default_config_path();
  std::vector<std::string> overrides;
  SimulationChoice simulation;  // --batch, --fidelity (simulated)
  std::string out_dir;          // empty: print only
  std::string format = "table";
  BlackthornProfileOptions run;
};

std::vector<std::string> profile_outputs() {
  return {"models.json", "report.json", "requests.csv", "fitter_sweeps.csv", "random_layers.csv", "network_layers.csv"};
}

// A measured profile that needs nothing more leaves no requests.csv from an earlier round behind.
void remove_stale_requests(const BlackthornProfileReport& report, const std::string& out_dir) {
  if (!report.measured || !report.requests.empty() || out_dir.empty()) return;
  const std::filesystem::path stale = std::filesystem::path(out_dir) / "requests.csv";
  std::error_code error;
  if (!std::filesystem::remove(stale, error) && error) {
    std::cerr << "warning: " << stale.string()
              << " lists requests the measurements now answer, and cannot be removed: " << error.message() << "\n";
  }
}

// The measurements must not be one of the files a profile writes into its folder.
void refuse_output_over_input(const std::string& out_dir, const std::string& input) {
  std::vector<std::string> outputs;
  for (const std::string& name : profile_outputs()) outputs.push_back((std::filesystem::path(out_dir) / name).string());
  if (const auto clash = find_output_over_input(outputs, {input})) {
    throw std::runtime_error(
        fmt::format("--out {}: the profile would write {} over the measurements {}; keep "
                    "the measurements outside the output folder or under another name",
                    out_dir, std::filesystem::path(clash->output).filename().string(), input));
  }
}

// The profile, from measurements or simulated.
BlackthornProfileReport profile_report(ProfileOptions& options, OutputFolder& out) {
  if (!options.run.measurements_csv.empty()) return run_blackthorn_measured_profile(options.run);
  const AcceleratorConfig config = load_accelerator_config(options.config_path, options.overrides);
  out.add_inputs({energy_table_path(config)});
  const EnergyTable table = load_energy_table(energy_table_path(config));
  options.run.simulation = simulation_options(options.simulation);
  return run_blackthorn_profile(config, table, options.run);
}

// Without --out the profile is printed in --format and nothing is kept; its files are still staged and
// checked (docs/cli.md, "Outputs"), its plots, files only, left out.
void run_profile(ProfileOptions& options) {
  std::vector<std::string> inputs = {options.config_path};
  if (!options.run.measurements_csv.empty()) {
    // says which file, first
    if (!options.out_dir.empty()) refuse_output_over_input(options.out_dir, options.run.measurements_csv);
    inputs = {options.run.measurements_csv};
  }
  OutputFolder out(output_target(options.out_dir, "profile-blackthorn"), "--out", profile_outputs(), inputs);
  const BlackthornProfileReport report = profile_report(options, out);
  const ReportForms forms = blackthorn_profile_forms(report);
  const std::string remark = write_blackthorn_profile(report, forms, out.staging_folder(), !options.out_dir.empty());
  const std::vector<std::string> written = commit_output(out, options.out_dir);
  remove_stale_requests(report, options.out_dir);
  print_report(forms, options.format);
  note_written(options.out_dir, written, remark);
}

}  // namespace

void register_blackthorn_commands(CLI::App& app) {
  CLI::App* profile = app.get_subcommand("profile");
  CLI::App* blackthorn = profile->add_subcommand(
      "blackthorn", "Profile Blackthorn's layer latency models (Lechner and Jantsch 2021) on a simulated config");
  auto options = std::make_shared<ProfileOptions>();
  blackthorn->footer("Example:\n  ergon profile blackthorn -c edge_tpu --out results/bt");
  options->run.jobs = available_cores();
  blackthorn->add_option("--config,-c", options->config_path, "Accelerator config YAML")
      ->capture_default_str()
      ->transform(shipped_config());
  blackthorn->add_option("--set", options->overrides, "Override a config key: key.path=value (repeatable)");
  add_simulation_options(*blackthorn, options->simulation);
  blackthorn->add_option("--out,-o", options->out_dir,
                         "Output folder: models.json, report.json, requests.csv, checks and plots (without it: print "
                         "only)");
  add_format_option(*blackthorn, options->format);
  blackthorn->add_option("--jobs,-j", options->run.jobs, "Worker processes")
      ->capture_default_str()
      ->check(CLI::Range(1u, kMaxWorkerProcesses));
  blackthorn->add_option("--scale", options->run.scale, "Shrink every profiled range by this factor (quick looks)")
      ->check(CLI::Range(0.01, 1.0))
      ->capture_default_str();
  blackthorn->add_option("--random-layers", options->run.random_layers, "Random conv layers to check the models on")
      ->capture_default_str();
  blackthorn
      ->add_option_function<std::string>(
          "--fit-error",
          [options](const std::string& form) { options->run.fit.innermost.relative_error = form == "relative"; },
          "Error the fits of measured latencies minimise: relative (default) or absolute (the paper's eq. 4)")
      ->transform(CLI::IsMember({"relative", "absolute"}, CLI::ignore_case));
  blackthorn
      ->add_option("--sweeps", options->run.sweeps,
                   "Full 1-D sweeps to check the fitter against (the paper's Fig. 7; 0: none)")
      ->capture_default_str();
  CLI::Option* measurements =
      blackthorn
          ->add_option("--measurements", options->run.measurements_csv,
                       "Profile from this CSV of measured layer latencies instead of simulating (docs/blackthorn.md)")
          ->check(input_file());
  measurements->excludes("--set")
      ->excludes("--random-layers")
      ->excludes("--config")
      ->excludes("--batch")
      ->excludes("--fidelity");
  add_progress_options(*blackthorn);
  blackthorn->callback([options] { run_profile(*options); });
}

ERGON_REGISTER(CliCommand, "blackthorn", CliCommand{register_blackthorn_commands}, 130)

}  // namespace ergon
