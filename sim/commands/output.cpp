#include "sim/commands/output.hpp"

#include <iostream>
#include <stdexcept>

#include "common/atomic_file.hpp"
#include "common/output_paths.hpp"
#include "sim/activity_rows.hpp"
#include "sim/commands/cli_checks.hpp"
#include "sim/commands/commands.hpp"

namespace ergon {

void emit_output(const std::string& content, const std::string& out_path) {
  if (out_path.empty()) {
    std::cout << content << std::flush;
  } else {
    write_file_atomically(out_path, content);
  }
}

void refuse_output_over_inputs(const std::string& out_path, const std::vector<std::string>& input_paths,
                               const std::string& option) {
  if (const auto clash = find_output_over_input({out_path}, input_paths)) {
    throw std::runtime_error(option + " " + out_path + " is an input of this command (" + clash->input +
                             "); choose another output file");
  }
}

void add_activity_options(CLI::App& command, std::string& detail, std::size_t& max_rows) {
  command
      .add_option("--activity", detail,
                  "activity.csv: none; layers (a row per layer); intervals (bounded by --activity-max-rows, adjacent "
                  "intervals merged beyond it)")
      ->check(CLI::IsMember({"none", "layers", "intervals"}, CLI::ignore_case))
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
