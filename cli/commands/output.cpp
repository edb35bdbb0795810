#include "cli/commands/output.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <stdexcept>

#include "cli/commands/cli_checks.hpp"
#include "cli/commands/commands.hpp"
#include "common/atomic_file.hpp"
#include "common/input_error.hpp"
#include "common/output_paths.hpp"
#include "common/progress_display.hpp"
#include "common/staged_commit.hpp"
#include "network/workload.hpp"
#include "sim/activity_rows.hpp"
#include "sim/run_observers.hpp"

namespace ergon {

void refuse_output_over_inputs(const std::string& out_path, const std::vector<std::string>& input_paths,
                               const std::string& option) {
  if (const auto clash = find_output_over_input({out_path}, input_paths)) {
    throw std::runtime_error(option + " " + out_path + " is an input of this command (" + clash->input +
                             "); choose another output file");
  }
}

void check_output_file_option(const std::string& path, const std::string& option) {
  std::error_code error;
  if (std::filesystem::is_directory(std::filesystem::status(path, error))) {
    throw UsageError(option + " " + path + " is a folder; give the name of the file to write");
  }
  try {
    check_target_replaceable(path);
  } catch (const std::exception& failure) {
    throw std::runtime_error(option + " " + failure.what());
  }
}

void add_format_option(CLI::App& command, std::string& format, const std::vector<std::string>& extra,
                       const std::string& extra_help) {
  std::vector<std::string> names = report_format_names();
  names.insert(names.end(), extra.begin(), extra.end());
  std::string help =
      "What stdout shows: table (for reading), json (the whole result), csv (a row per item, full "
      "precision) or markdown (the CSV as a table)";
  if (!extra_help.empty()) help += "; " + extra_help;
  command.add_option("--format", format, help)
      ->transform(CLI::IsMember(names, CLI::ignore_case))
      ->capture_default_str();
}

void add_report_out_option(CLI::App& command, std::string& out_dir, const std::string& stem) {
  command.add_option("--out,-o", out_dir,
                     "Also write " + stem + ".json and " + stem + ".csv into this folder (staged: all or nothing)");
}

std::optional<OutputFolder> open_report_folder(const std::string& out_dir, const std::string& stem,
                                               const std::vector<std::string>& inputs) {
  if (out_dir.empty()) return std::nullopt;
  return std::optional<OutputFolder>(std::in_place, out_dir, "--out",
                                     std::vector<std::string>{stem + ".json", stem + ".csv"}, inputs);
}

void emit_report(const ReportForms& forms, const std::string& format, std::optional<OutputFolder>& out,
                 const std::string& stem) {
  write_report_files(forms, out, stem);  // first: a reader that stops early (`| head`) cannot cost the files
  print_report(forms, format);
}

void print_report(const ReportForms& forms, const std::string& format) {
  std::cout << report_in_format(forms, format) << std::flush;
}

void write_report_files(const ReportForms& forms, std::optional<OutputFolder>& out, const std::string& stem) {
  if (!out) return;
  write_file_atomically(out->staged(stem + ".json"), forms.json);
  write_file_atomically(out->staged(stem + ".csv"), forms.csv);
  note_written(out->target(), out->commit());
}

void add_batch_option(CLI::App& command, std::int64_t& batch) {
  command.add_option("--batch", batch, "Images processed together by every layer (default: the workload's)")
      ->check(CLI::Range(std::int64_t{1}, kMaxBatch));
}

void add_simulation_options(CLI::App& command, SimulationChoice& choice) {
  add_batch_option(command, choice.batch);
  command
      .add_option("--fidelity", choice.fidelity,
                  "tlm: transaction level; cycle: cycle-accurate PE array on real values, outputs checked")
      ->transform(CLI::IsMember({"tlm", "cycle"}, CLI::ignore_case))
      ->capture_default_str();
}

SimulationOptions simulation_options(const SimulationChoice& choice) {
  SimulationOptions options;
  if (choice.batch > 0) options.batch = choice.batch;
  options.fidelity = parse_fidelity(choice.fidelity);
  return options;
}

void apply_batch(const SimulationChoice& choice, Workload& workload) {
  if (choice.batch > 0) workload.set_batch(choice.batch);
}

std::string output_target(const std::string& out_dir, const std::string& command) {
  if (!out_dir.empty()) return out_dir;
  return (std::filesystem::temp_directory_path() / ("ergon-" + command + "-print-only")).string();
}

std::vector<std::string> commit_output(OutputFolder& out, const std::string& out_dir) {
  if (out_dir.empty()) return {};  // print only: the staging folder goes with `out`
  return out.commit();
}

void refuse_without_out(const std::string& out_dir, const std::string& option, bool given) {
  if (given && out_dir.empty()) throw UsageError(option + " writes files: give --out DIR as well");
}

void note_written(const std::string& out_dir, const std::vector<std::string>& names, const std::string& remark) {
  if (out_dir.empty()) return;
  std::string list;
  for (const std::string& name : names) list += (list.empty() ? "" : ",") + name;
  std::cout << std::flush;
  const bool ends_with_slash = !out_dir.empty() && out_dir.back() == '/';  // "--out out/": no "out//"
  std::cerr << "note: wrote " << out_dir << (ends_with_slash ? "" : "/")
            << (names.size() == 1 ? list : "{" + list + "}") << remark << "\n";
}

void add_progress_options(CLI::App& command) {
  command.preparse_callback([](std::size_t) { set_progress_shown(true); });
  command.add_flag_callback(
      "--quiet,-q", [] { set_progress_shown(false); },
      "No progress display on stderr (it appears on its own for simulations that run over a second)");
}

void add_max_output_option(CLI::App& command, double& max_output_mb) {
  command
      .add_option("--max-output-mb", max_output_mb,
                  "Refuse a run whose files would take more than this (activity.csv's bound plus the traces)")
      ->check(CLI::Range(0.001, 1e9))
      ->capture_default_str();
}

std::uint64_t trace_allowance_bytes(double max_output_mb, const std::string& activity, std::size_t activity_max_rows,
                                    const Workload& workload) {
  const auto budget = static_cast<std::uint64_t>(max_output_mb * 1e6);
  const std::uint64_t activity_bytes =
      activity_csv_max_bytes(parse_activity_detail(activity), activity_max_rows, workload);
  if (activity_bytes > budget) {
    throw UsageError(fmt::format(
        "activity.csv may take up to {:.1f} MB at --activity {} (--activity-max-rows {}, about {} bytes a row), over "
        "--max-output-mb {}; lower --activity-max-rows, choose --activity layers or none, or raise --max-output-mb",
        static_cast<double>(activity_bytes) / 1e6, activity, activity_max_rows, kActivityRowMaxBytes, max_output_mb));
  }
  return budget - activity_bytes;
}

void report_output_over_budget(const OutputBudget& budget, double max_output_mb, const std::string& out_dir) {
  std::cout << std::flush;
  std::cerr << fmt::format(
      "error: {} outgrew the run's output bound: the traces may take {:.1f} MB of --max-output-mb {} (activity.csv "
      "takes the rest); raise --max-output-mb, drop a --trace, or simulate fewer layers (nothing was written)\n",
      (std::filesystem::path(out_dir) / std::filesystem::path(budget.first_file_over()).filename()).string(),
      static_cast<double>(budget.max_bytes()) / 1e6, max_output_mb);
  command_exit_status() = kExitInputError;
}

void add_activity_options(CLI::App& command, std::string& detail, std::size_t& max_rows) {
  command
      .add_option("--activity", detail,
                  "activity.csv: none; layers (a row per layer); intervals (bounded by --activity-max-rows, adjacent "
                  "intervals merged beyond it)")
      ->transform(CLI::IsMember({"none", "layers", "intervals"}, CLI::ignore_case))
      ->capture_default_str();
  command
      .add_option("--activity-max-rows", max_rows,
                  "Most rows in activity.csv at intervals detail (about 150 bytes each)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000000}))
      ->capture_default_str();
}

void report_non_finite(const std::string& value_path, const std::vector<std::string>& inputs) {
  std::string sources;
  for (const std::string& input : inputs) sources += (sources.empty() ? "" : ", ") + input;
  std::cerr << "error: the result " << value_path << " is not a finite number; check the values in " << sources
            << " (nothing was written)\n";
  command_exit_status() = kExitInputError;
}

int& command_exit_status() {
  static int status = 0;
  return status;
}

}  // namespace ergon
