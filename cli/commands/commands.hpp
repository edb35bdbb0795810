#pragma once
// Each subcommand registers itself on the CLI11 app; main() only wires them together.
#include <CLI/CLI.hpp>

namespace ergon {

void register_estimate_command(CLI::App& app);
void register_workload_command(CLI::App& app);
void register_config_command(CLI::App& app);
void register_run_command(CLI::App& app);
void register_map_command(CLI::App& app);
void register_compare_command(CLI::App& app);
void register_import_command(CLI::App& app);
void register_roofline_command(CLI::App& app);
void register_dvfs_command(CLI::App& app);
void register_sweep_command(CLI::App& app);
void register_fit_command(CLI::App& app);
void register_profile_command(CLI::App& app);
void register_partition_command(CLI::App& app);
void register_bench_phases_command(CLI::App& app);
// What main() returns when no exception was thrown. A command whose error is found after a simulation
// reports it on stderr, sets this and returns: an exception thrown once SystemC has switched stacks trips
// AddressSanitizer's unwinding hook in the sanitizer builds (a false report; google/sanitizers#189).
int& command_exit_status();

// Adds --input-shape and --skip-unsupported (ONNX import options) to every command that reads a model: those
// with a --workload option, and `import onnx`. Call after every command is registered.
void add_model_import_options(CLI::App& app);

// Adds `profile blackthorn` and `estimate blackthorn`: call after the profile and estimate commands.
void register_blackthorn_commands(CLI::App& app);

}  // namespace ergon
