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
  std::string out_dir;
  BlackthornProfileOptions run;
};

std::vector<std::string> profile_outputs() {
  return {"models.json", "report.json", "requests.csv", "fitter_sweeps.csv", "random_layers.csv", "network_layers.csv"};
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
  blackthorn
      ->add_option("--out,-o", options->out_dir,
                   "Output folder: models.json, report.json, requests.csv, checks and plots")
      ->required();
  blackthorn->add_option("--jobs,-j", options->run.jobs, "Worker processes")->capture_default_str();
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
  measurements->excludes("--set")->excludes("--random-layers")->excludes("--config");
  add_progress_options(*blackthorn);
  blackthorn->callback([options] {
    std::vector<std::string> inputs = {options->config_path};
    if (!options->run.measurements_csv.empty()) {
      refuse_output_over_input(options->out_dir, options->run.measurements_csv);  // says which file, first
      inputs = {options->run.measurements_csv};
    }
    OutputFolder out(options->out_dir, "--out", profile_outputs(), inputs);  // staged: all or nothing
    std::string summary;
    if (!options->run.measurements_csv.empty()) {
      summary = write_blackthorn_profile(run_blackthorn_measured_profile(options->run), out.staging_folder());
    } else {
      const AcceleratorConfig config = load_accelerator_config(options->config_path, options->overrides);
      out.add_inputs({energy_table_path(config)});
      const EnergyTable table = load_energy_table(energy_table_path(config));
      summary = write_blackthorn_profile(run_blackthorn_profile(config, table, options->run), out.staging_folder());
    }
    summary = out.shown(summary);
    out.commit();
    std::cout << summary;
  });
}

ERGON_REGISTER(CliCommand, "blackthorn", CliCommand{register_blackthorn_commands}, 130)

}  // namespace ergon
