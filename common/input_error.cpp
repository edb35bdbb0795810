#include "common/input_error.hpp"

#include <fmt/format.h>

namespace ergon {

std::string SourceLocation::to_string() const {
  if (!override_text.empty()) return override_text;
  if (line <= 0) return file;
  return fmt::format("{}:{}:{}", file, line, column);
}

namespace {
std::string format_message(const SourceLocation& location, const std::string& key_path, const std::string& message) {
  std::string text = location.to_string();
  if (!key_path.empty()) text += (text.empty() ? "" : ": ") + key_path;
  return text + (text.empty() ? "" : ": ") + message;
}
}  // namespace

InputError::InputError(const SourceLocation& location, const std::string& key_path, const std::string& message)
    : std::runtime_error(format_message(location, key_path, message)), location_(location), key_path_(key_path) {}

}  // namespace ergon
