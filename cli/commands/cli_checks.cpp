#include "cli/commands/cli_checks.hpp"

#include <unistd.h>

#include <filesystem>

namespace ergon {
namespace {

std::string why_unreadable(const std::string& path) {
  if (path.empty()) return "the path is empty";
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (error == std::errc::too_many_symbolic_link_levels) return "it is a loop of symbolic links";
  if (!std::filesystem::exists(status)) {
    const auto link = std::filesystem::symlink_status(path, error);
    if (std::filesystem::is_symlink(link)) return "it is a symbolic link to a file that does not exist";
    return "no such file";
  }
  if (std::filesystem::is_directory(status)) return "it is a folder, not a file";
  if (::access(path.c_str(), R_OK) != 0) return "it cannot be read (permission denied)";
  return {};
}

constexpr const char* kInputFileValidator = "input_file";

std::function<std::string(std::string&)> check_readable(const std::string& option) {
  return [option](std::string& path) -> std::string {
    if (const std::string why = why_unreadable(path); !why.empty()) {
      throw InputFileError((option.empty() ? "" : option + " ") + path + ": " + why);
    }
    return {};
  };
}

void name_options_of(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    for (int index = 0;; ++index) {
      CLI::Validator* validator = nullptr;
      try {
        validator = option->get_validator(index);
      } catch (const CLI::OptionNotFound&) {
        break;
      }
      const std::string name = option->get_lnames().empty() ? option->get_name() : "--" + option->get_lnames()[0];
      if (validator->get_name() == kInputFileValidator) validator->operation(check_readable(name));
    }
  }
  for (CLI::App* subcommand : app.get_subcommands({})) name_options_of(*subcommand);
}

}  // namespace

CLI::Validator input_file() {
  return CLI::Validator(check_readable(""), "FILE", kInputFileValidator);
}

void name_input_file_options(CLI::App& app) {
  name_options_of(app);
}

}  // namespace ergon
