#pragma once
// The command-line grammar every command shares (docs/cli.md): --format, --out folders, --quiet,
// --max-output-mb, --activity, and how results and notes reach stdout and stderr.
#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/output_budget.hpp"
#include "common/output_folder.hpp"
#include "common/report_formats.hpp"
#include "sim/simulation.hpp"

namespace ergon {

class Workload;

// Refuses (before anything is computed) an output file that is one of the command's inputs, links
// resolved; `option` names the output's option in the message.
void refuse_output_over_inputs(const std::string& out_path, const std::vector<std::string>& input_paths,
                               const std::string& option);

// The output file of a conversion (`import ... --out FILE`), checked before anything is read: a folder
// there is a usage error, a folder that cannot be written an input error.
void check_output_file_option(const std::string& path, const std::string& option);

// --format table|json|csv|markdown, table by default, plus `extra` forms a command adds, which
// `extra_help` explains (docs/cli.md).
void add_format_option(CLI::App& command, std::string& format, const std::vector<std::string>& extra = {},
                       const std::string& extra_help = "");

// --out DIR of a command whose files are its report: DIR/<stem>.json and DIR/<stem>.csv.
void add_report_out_option(CLI::App& command, std::string& out_dir, const std::string& stem);

// The --out folder of a report command, opened before any work so that an output over an input is refused
// first; nothing when --out is not given.
std::optional<OutputFolder> open_report_folder(const std::string& out_dir, const std::string& stem,
                                               const std::vector<std::string>& inputs);

// Print-only runs (docs/cli.md, "Outputs"): without --out a command prints its report in --format and writes
// nothing. Its files are still staged, in a scratch folder that is removed uncommitted, so every check on
// them runs as with --out. output_target gives --out's folder, or that scratch folder's target.
std::string output_target(const std::string& out_dir, const std::string& command);
// Commits `out` into --out and returns the names written; without --out nothing (the scratch folder is
// removed with `out`).
std::vector<std::string> commit_output(OutputFolder& out, const std::string& out_dir);
// Options whose only product is a file (--trace, --pareto plots) need --out: a usage error naming them.
void refuse_without_out(const std::string& out_dir, const std::string& option, bool given);

// Prints `forms` on stdout in `format` and, with a folder, writes <stem>.json and <stem>.csv into it.
void emit_report(const ReportForms& forms, const std::string& format, std::optional<OutputFolder>& out,
                 const std::string& stem);
void print_report(const ReportForms& forms, const std::string& format);
void write_report_files(const ReportForms& forms, std::optional<OutputFolder>& out, const std::string& stem);

// "note: wrote DIR/{a,b}" on stderr, after stdout is flushed, so that stdout holds the report alone; nothing
// for a print-only run (no DIR).
void note_written(const std::string& out_dir, const std::vector<std::string>& names, const std::string& remark = "");

// The command shows its progress on stderr (docs/cli.md, "Progress"): each simulation's, a process pool's
// tasks; --quiet,-q turns that off.
void add_progress_options(CLI::App& command);

// --max-output-mb (docs/cli.md, "Bounds"): the most a run's files may take.
inline constexpr double kDefaultMaxOutputMb = 1024;
void add_max_output_option(CLI::App& command, double& max_output_mb);

// What the traces may take: --max-output-mb less activity.csv's bound. A usage error when activity.csv
// alone could exceed it, before anything runs.
std::uint64_t trace_allowance_bytes(double max_output_mb, const std::string& activity, std::size_t activity_max_rows,
                                    const Workload& workload);

// The traces outgrew --max-output-mb: says so with the figure and sets the exit status (found after the
// simulation, so not thrown).
void report_output_over_budget(const OutputBudget& budget, double max_output_mb, const std::string& out_dir);

// --batch and --fidelity, the same on every command that simulates (docs/cli.md, "Grammar").
struct SimulationChoice {
  std::int64_t batch = 0;  // 0: each layer's own batch
  std::string fidelity = "tlm";
};
void add_simulation_options(CLI::App& command, SimulationChoice& choice);
// --batch alone, for a command that plans layers without simulating them (`ergon map`).
void add_batch_option(CLI::App& command, std::int64_t& batch);
// The choice as the simulator takes it: options.batch and options.fidelity set.
SimulationOptions simulation_options(const SimulationChoice& choice);
// --batch applied to the workload itself, for commands whose studies build their own simulation options.
void apply_batch(const SimulationChoice& choice, Workload& workload);

// --activity none|layers|intervals and --activity-max-rows (docs/simulator.md).
void add_activity_options(CLI::App& command, std::string& detail, std::size_t& max_rows);

// A result that is not finite (common/finite_json): says which value and which inputs produced it, and
// sets the exit status instead of throwing (it is found after the simulation).
void report_non_finite(const std::string& value_path, const std::vector<std::string>& inputs);

}  // namespace ergon
