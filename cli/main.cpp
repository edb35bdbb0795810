// The `ergon` command line: each subcommand registers itself from its file in cli/commands/. Exit statuses, the
// "error:" prefix and interrupt handling are the same for every command (docs/cli.md).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <iostream>
#include <new>

#include "cli/commands/cli_checks.hpp"
#include "cli/commands/commands.hpp"
#include "common/atomic_file.hpp"
#include "common/input_error.hpp"
#include "common/interrupt_cleanup.hpp"
#include "common/text.hpp"
#include "sim/data_paths.hpp"
#include "sim/parallel/interrupt.hpp"

namespace {

int report(const char* what, int status) {
  std::cerr << "error: " << what << "\n";
  return status;
}

// An allocation that failed outside the located checks (every size a user sets is bounded where it is read):
// say which command with which arguments asked for it rather than "std::bad_alloc".
int report_out_of_memory(int argc, char** argv) {
  std::string command;
  for (int i = 1; i < argc; ++i) command += std::string(i > 1 ? " " : "") + argv[i];
  std::cerr << "error: out of memory while running `ergon " << command
            << "`: a value among its inputs asks for more memory than this machine has (a huge --batch, layer, "
               "sweep or level count?); nothing was written\n";
  return ergon::kExitInputError;
}

// Results on stdout that could not be written (a full disk behind `> file`) are an error, not exit 0. The
// stream keeps no errno from its failed write: a one-byte write asks the system again why.
int checked_stdout(int status) {
  std::cout.flush();
  if (!std::cout.fail() && std::fflush(stdout) == 0 && std::ferror(stdout) == 0) return status;
  const int error_number = ::write(STDOUT_FILENO, "\n", 1) < 0 ? errno : EIO;
  std::cerr << "error: " << ergon::write_error_message("the standard output", error_number) << "\n";
  return status == 0 ? ergon::kExitInputError : status;
}

std::vector<std::string> long_option_names(const CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::Option* option : command.get_options()) {
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
  }
  return names;
}

std::vector<std::string> subcommand_names(const CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::App* subcommand : command.get_subcommands({})) names.push_back(subcommand->get_name());
  return names;
}

CLI::App* find_subcommand(CLI::App& command, const std::string& name) {
  for (CLI::App* subcommand : command.get_subcommands({})) {
    if (subcommand->get_name() == name) return subcommand;
  }
  return nullptr;
}

// What a parse error adds for the first mistyped command or long option on the command line: the closest
// name the command at that place takes. Empty when every word is known or nothing is close.
std::string suggestion(CLI::App& app, int argc, char** argv) {
  CLI::App* command = &app;
  std::string path = "ergon";
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--") break;
    if (word.rfind("--", 0) == 0) {
      const std::string name = word.substr(0, word.find('='));
      if (command->get_option_no_throw(name) != nullptr) continue;
      const std::string closest = ergon::closest_match(name, long_option_names(*command));
      return closest.empty() ? "" : "\n" + path + " has no option " + name + "; did you mean " + closest + "?";
    }
    if (word.empty() || word[0] == '-') continue;
    if (CLI::App* subcommand = find_subcommand(*command, word)) {
      command = subcommand;
      path += " " + word;
      continue;
    }
    if (command->get_require_subcommand_min() == 0) continue;  // an option's value
    const std::string closest = ergon::closest_match(word, subcommand_names(*command));
    return closest.empty() ? ""
                           : "\n" + path + " has no command " + word + "; did you mean " + path + " " + closest + "?";
  }
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  ergon::install_interrupt_cleanup();
  CLI::App app{"Ergon: discrete-event simulator and analytical estimators for DNN inference accelerators", "ergon"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "ergon " ERGON_VERSION);
  ergon::add_registered_commands(app);
  // A data folder set by the user that is wrong fails every command at once, saying so.
  app.preparse_callback([](std::size_t) { ergon::check_data_dir_variable(); });
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& help) {
    return app.exit(help);
  } catch (const CLI::CallForAllHelp& help) {
    return app.exit(help);
  } catch (const CLI::CallForVersion& version) {
    return app.exit(version);
  } catch (const CLI::ParseError& error) {
    std::cerr << "error: " << error.what() << suggestion(app, argc, argv)
              << "\nRun with --help for more information.\n";
    return ergon::kExitUsageError;
  } catch (const ergon::UsageError& error) {
    std::cerr << "error: " << error.what() << "\nRun with --help for more information.\n";
    return ergon::kExitUsageError;
  } catch (const ergon::Interrupted& error) {
    return report(error.what(), ergon::kExitInterrupted);
  } catch (const std::bad_alloc&) {
    return report_out_of_memory(argc, argv);
  } catch (const std::exception& error) {
    return checked_stdout(report(error.what(), ergon::kExitInputError));
  }
  return checked_stdout(ergon::command_exit_status());
}
