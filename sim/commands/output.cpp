#include "sim/commands/output.hpp"

#include <filesystem>
#include <iostream>
#include <stdexcept>

#include "common/atomic_file.hpp"
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
  if (out_path.empty()) return;
  std::error_code error;
  const auto out = std::filesystem::weakly_canonical(out_path, error);
  if (error) return;  // the write itself reports an unusable path
  for (const std::string& input : input_paths) {
    if (input.empty()) continue;
    const auto in = std::filesystem::weakly_canonical(input, error);
    if (!error && in == out) {
      throw std::runtime_error(option + " " + out_path + " is an input of this command (" + input +
                               "); choose another output file");
    }
  }
}

int& command_exit_status() {
  static int status = 0;
  return status;
}

}  // namespace ergon
