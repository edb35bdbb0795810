#include "common/input_text.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/input_error.hpp"
#include "common/text.hpp"

namespace ergon {
namespace {

// Control bytes other than tab, newline, vertical tab, form feed and carriage return.
bool looks_binary(const std::string& text) {
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte == 0 || (byte < 0x09) || (byte > 0x0d && byte < 0x20)) return true;
  }
  return false;
}

}  // namespace

std::string read_input_text(const std::string& path, const std::string& format) {
  const auto fail = [&](const std::string& message) { throw InputError({path, 0, 0, {}}, "", message); };
  std::error_code status;
  if (!std::filesystem::is_regular_file(path, status)) fail("not a regular file (does it exist? is it a folder?)");
  if (std::filesystem::file_size(path, status) > kMaxInputBytes) {
    fail("larger than 64 MiB; not an input file Ergon reads");
  }
  std::ifstream stream(path, std::ios::binary);
  if (!stream) fail("cannot open the file (is it readable?)");
  std::stringstream buffer;
  buffer << stream.rdbuf();
  std::string text = buffer.str();
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) fail("the file is empty; expected " + format);
  if (looks_binary(text)) fail("not " + format + ": it contains binary bytes (is it the right file?)");
  if (const std::size_t bad = invalid_utf8_offset(text); bad != std::string::npos) {
    const auto line_start = text.rfind('\n', bad);
    const auto line = static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(bad), '\n'));
    const auto column = static_cast<int>(line_start == std::string::npos ? bad : bad - line_start - 1);
    throw InputError({path, line + 1, column + 1, {}}, "",
                     "not UTF-8 text (a byte here is not valid UTF-8); save the file as UTF-8");
  }
  return text;
}

}  // namespace ergon
