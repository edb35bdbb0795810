// The `ergon` command line: subcommands are registered from sim/commands/.
#include <CLI/CLI.hpp>
#include <iostream>

#include "common/input_error.hpp"
#include "sim/commands/commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"Ergon: discrete-event simulator and analytical estimators for DNN inference accelerators"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "ergon 0.1.0");
  ergon::register_run_command(app);
  ergon::register_map_command(app);
  ergon::register_compare_command(app);
  ergon::register_import_command(app);
  ergon::register_roofline_command(app);
  ergon::register_dvfs_command(app);
  ergon::register_sweep_command(app);
  ergon::register_fit_command(app);
  ergon::register_profile_command(app);
  ergon::register_partition_command(app);
  ergon::register_bench_phases_command(app);
  ergon::register_estimate_command(app);
  ergon::register_blackthorn_commands(app);
  ergon::register_workload_command(app);
  ergon::register_config_command(app);
  ergon::add_model_import_options(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error);
  } catch (const ergon::InputError& error) {
    std::cerr << "error: " << error.what() << "\n";
    return 1;
  } catch (const std::exception& error) {
    std::cerr << "error: " << error.what() << "\n";
    return 1;
  }
  return ergon::command_exit_status();
}
