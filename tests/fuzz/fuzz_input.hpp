#pragma once
// Shared plumbing of the fuzz targets. Each target feeds bytes to one input parser through the entry point
// the command line uses (a file path). The contract under test: any input either loads or is rejected with
// an InputError naming the file; any other exception, crash, hang or sanitizer report is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "common/input_error.hpp"

namespace ergon::fuzz {

// Writes the bytes to a per-process scratch file ending in `extension` (removed at exit); returns its path.
std::string write_scratch_file(std::string_view bytes, const std::string& extension);
inline std::string write_scratch_file(const std::uint8_t* data, std::size_t size, const std::string& extension) {
  return write_scratch_file(std::string_view(reinterpret_cast<const char*>(data), size), extension);
}

// Runs `load`; an InputError is the accepted way to reject input, and its message must name the file
// (or the --set override) it is about. Other exceptions escape and abort the run.
template <typename Load>
void expect_load_or_input_error(const std::string& path, Load&& load) {
  try {
    load();
  } catch (const InputError& error) {
    const std::string message = error.what();
    if (message.find(path) == std::string::npos && message.find("--set") == std::string::npos) {
      std::fprintf(stderr, "InputError that names neither the file nor an override: %s\n", message.c_str());
      std::abort();
    }
  }
}

}  // namespace ergon::fuzz
