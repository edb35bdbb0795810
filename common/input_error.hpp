#pragma once
// An error in user input, located in the file (or command-line override) it came from.
#include <stdexcept>
#include <string>

namespace ergon {

// Where a value came from: a file position (1-based; 0 = unknown) or a command-line override.
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;
  std::string override_text;  // e.g. "--set glb.size_kib=abc"; takes precedence over the file position

  std::string to_string() const;
};

// Formats as "file:line:col: key.path: what is wrong".
class InputError : public std::runtime_error {
 public:
  InputError(const SourceLocation& location, const std::string& key_path, const std::string& message);

  const SourceLocation& location() const { return location_; }
  const std::string& key_path() const { return key_path_; }

 private:
  SourceLocation location_;
  std::string key_path_;
};

// A command line that cannot work whatever the files hold: a missing or empty option, options that
// exclude each other. The command line exits with status 2 (docs/cli.md).
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace ergon
