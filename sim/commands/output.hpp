#pragma once
// Sends a command's result to stdout or, with --out, atomically to a file.
#include <string>
#include <vector>

namespace ergon {

void emit_output(const std::string& content, const std::string& out_path);

// Refuses (before anything is computed) an output file that is one of the command's inputs, links
// resolved; `option` names the output's option in the message.
void refuse_output_over_inputs(const std::string& out_path, const std::vector<std::string>& input_paths,
                               const std::string& option);

}  // namespace ergon
