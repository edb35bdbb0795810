#include "sim/commands/output.hpp"

#include <iostream>

#include "common/atomic_file.hpp"

namespace ergon {

void emit_output(const std::string& content, const std::string& out_path) {
  if (out_path.empty()) {
    std::cout << content << std::flush;
  } else {
    write_file_atomically(out_path, content);
  }
}

}  // namespace ergon
