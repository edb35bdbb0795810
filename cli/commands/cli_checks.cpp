#include "cli/commands/cli_checks.hpp"

#include <unistd.h>

#include <charconv>
#include <cstdint>
#include <filesystem>

#include "cli/commands/commands.hpp"
#include "common/text.hpp"
#include "sim/data_paths.hpp"

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

constexpr const char* kShippedConfigValidator = "shipped_config";
constexpr const char* kShippedWorkloadValidator = "shipped_workload";

// A path, or a shipped part's name resolved to its file; a name that is neither says what is shipped.
std::function<std::string(std::string&)> resolve_and_check(ShippedPart part, const std::string& option) {
  return [part, option](std::string& path) -> std::string {
    const std::string given = path;
    path = resolve_shipped(part, given);
    if (std::string why = why_unreadable(path); !why.empty()) {
      if (why == "no such file") {
        if (const std::string shipped = why_not_shipped(part, given); !shipped.empty()) why += ", " + shipped;
      }
      throw InputFileError((option.empty() ? "" : option + " ") + given + ": " + why);
    }
    return {};
  };
}

// CLI11's PositiveNumber and NonNegativeNumber state their range as two 300-digit numbers, and let NaN
// through: these say the range in words, for the option's type (a whole number or any finite number).
std::function<std::string(std::string&)> check_number_bound(bool positive, bool whole) {
  return [positive, whole](std::string& text) -> std::string {
    const std::string wanted = whole ? (positive ? "a whole number of at least 1" : "a whole number of at least 0")
                                     : (positive ? "a finite number above 0" : "a finite number of at least 0");
    const std::optional<double> value = parse_finite_number(text);
    bool fits = value && (positive ? *value > 0 : *value >= 0);
    if (fits && whole) {
      std::uint64_t count = 0;
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), count);
      fits = error == std::errc() && end == text.data() + text.size() && (count > 0 || !positive);
    }
    return fits ? std::string() : text + " is not " + wanted;
  };
}

bool takes_whole_number(const CLI::Option& option) {
  const std::string type = option.get_type_name();
  return type.rfind("UINT", 0) == 0 || type.rfind("INT", 0) == 0;
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
      if (validator->get_name() == kShippedConfigValidator) {
        validator->operation(resolve_and_check(ShippedPart::kConfig, name));
      }
      if (validator->get_name() == kShippedWorkloadValidator) {
        validator->operation(resolve_and_check(ShippedPart::kWorkload, name));
      }
      // CLI11 gives these two their word as the description ("POSITIVE"), not as the name.
      const std::string bound = validator->get_description();
      if (bound == "POSITIVE" || bound == "NONNEGATIVE") {
        validator->operation(check_number_bound(bound == "POSITIVE", takes_whole_number(*option)));
      }
    }
  }
  for (CLI::App* subcommand : app.get_subcommands({})) name_options_of(*subcommand);
}

}  // namespace

CLI::Validator input_file() {
  return CLI::Validator(check_readable(""), "FILE", kInputFileValidator);
}

CLI::Validator shipped_config() {
  return CLI::Validator(resolve_and_check(ShippedPart::kConfig, ""), "CONFIG", kShippedConfigValidator);
}

CLI::Validator shipped_workload() {
  return CLI::Validator(resolve_and_check(ShippedPart::kWorkload, ""), "WORKLOAD", kShippedWorkloadValidator);
}

void name_input_file_options(CLI::App& app) {
  name_options_of(app);
}

ERGON_REGISTER(CliPass, "input-file-names", CliPass{name_input_file_options}, 20)

}  // namespace ergon
