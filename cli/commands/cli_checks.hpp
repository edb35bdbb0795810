#pragma once
// The command-line grammar shared by every command (docs/cli.md): how input files are checked, and the
// errors that choose the exit status.
#include <CLI/CLI.hpp>
#include <stdexcept>
#include <string>

#include "common/input_error.hpp"  // UsageError

namespace ergon {

// Exit statuses (docs/cli.md). 3, interrupted, is common/interrupt_cleanup's kExitInterrupted.
inline constexpr int kExitInputError = 1;
inline constexpr int kExitUsageError = 2;

// An input file named on the command line that cannot be read: it does not exist, is a folder, is a
// dangling link or a loop of links, or is not readable. The message names the option and says which.
// Thrown (not returned) so it exits as an input error, like any other unreadable input.
CLI::Validator input_file();
// input_file() for a config or a workload, which may also be a shipped part's name ("eyeriss", "alexnet")
// or its path in the source tree ("configs/eyeriss.yaml") from any folder (sim/data_paths.hpp).
CLI::Validator shipped_config();
CLI::Validator shipped_workload();

// Rewrites every input_file() check in the app to name its option ("--config eyeriss.yml: no such
// file"), and every CLI::PositiveNumber and CLI::NonNegativeNumber check to state its range in words
// ("--max-points: 0 is not a whole number of at least 1"). Runs once, as the last CliPass (cli/commands/commands.hpp).
void name_input_file_options(CLI::App& app);

// The error raised by input_file(): main() reports it as an input error.
struct InputFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace ergon
