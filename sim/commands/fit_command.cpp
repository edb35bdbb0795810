// `ergon fit lahmer`: Lahmer et al.'s model form fitted to simulated layer energies (docs/lahmer.md).
#include <iostream>
#include <memory>

#include "sim/commands/commands.hpp"
#include "sim/data_paths.hpp"
#include "sim/parallel/process_pool.hpp"
#include "sim/validation/lahmer_fit_run.hpp"

namespace ergon {
namespace {

struct FitOptions {
  std::string config_path = default_config_path();
  std::vector<std::string> overrides;
  std::string out_dir;
  unsigned jobs = available_cores();
};

void run_fit_lahmer(const FitOptions& options) {
  const AcceleratorConfig config = load_accelerator_config(options.config_path, options.overrides);
  const EnergyTable table = load_energy_table(energy_table_path(config));
  const LahmerFitRun run = run_lahmer_fit(config, table, options.jobs);
  std::cout << write_lahmer_fit(run, options.out_dir, config.name);
}

}  // namespace

void register_profile_command(CLI::App& app) {
  app.add_subcommand("profile", "Build empirical latency models by measuring simulated layers")->require_subcommand(1);
}

void register_fit_command(CLI::App& app) {
  CLI::App* fit = app.add_subcommand("fit", "Fit empirical model forms to simulated layers");
  fit->require_subcommand(1);
  CLI::App* lahmer =
      fit->add_subcommand("lahmer", "Fit Lahmer et al.'s E_conv = KCLC (a_c + b_c ofm), E_fc = a_f CLF to simulations");
  auto options = std::make_shared<FitOptions>();
  lahmer->add_option("--config,-c", options->config_path, "Accelerator config YAML")
      ->capture_default_str()
      ->check(CLI::ExistingFile);
  lahmer->add_option("--set", options->overrides, "Override a config key: key.path=value (repeatable)");
  lahmer->add_option("--out,-o", options->out_dir, "Output folder")->required();
  lahmer->add_option("--jobs,-j", options->jobs, "Worker processes")
      ->capture_default_str()
      ->check(CLI::Range(1u, 1024u));
  lahmer->callback([options] { run_fit_lahmer(*options); });
}

}  // namespace ergon
