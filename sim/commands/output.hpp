#pragma once
// Sends a command's result to stdout or, with --out, atomically to a file.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace ergon {

void emit_output(const std::string& content, const std::string& out_path);

// Refuses (before anything is computed) an output file that is one of the command's inputs, links
// resolved; `option` names the output's option in the message.
void refuse_output_over_inputs(const std::string& out_path, const std::vector<std::string>& input_paths,
                               const std::string& option);

// --activity none|layers|intervals and --activity-max-rows (docs/simulator.md).
void add_activity_options(CLI::App& command, std::string& detail, std::size_t& max_rows);

// A result that is not finite (common/finite_json): says which value and which inputs produced it, and
// sets the exit status instead of throwing (it is found after the simulation).
void report_non_finite(const std::string& value_path, const std::vector<std::string>& inputs);

}  // namespace ergon
