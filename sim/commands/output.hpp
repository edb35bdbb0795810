#pragma once
// Sends a command's result to stdout or, with --out, atomically to a file.
#include <string>

namespace ergon {

void emit_output(const std::string& content, const std::string& out_path);

}  // namespace ergon
