#pragma once
// Reading a user's text input file with the checks every loader needs before parsing.
#include <cstdint>
#include <string>

namespace ergon {

// The largest text input Ergon reads; converters refuse to write anything larger.
inline constexpr std::uintmax_t kMaxInputBytes = 64u << 20;

// The whole text of `path`. A missing, unreadable, oversized (> 64 MiB), empty or binary file is an
// InputError naming the file; `format` says what was expected, e.g. "a SCALE-Sim .cfg file".
std::string read_input_text(const std::string& path, const std::string& format);

}  // namespace ergon
