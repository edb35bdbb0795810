#pragma once
// The subcommands of `ergon`. Each registers itself from its own file, so adding one is that file plus its line
// in cli/CMakeLists.txt (docs/architecture.md, "Adding a part"):
//   ERGON_REGISTER(CliCommand, "name", CliCommand{add_my_command}, order)
// `order` is its place in `ergon --help` (run 10, map 20, ... config 150; see each file). A command that adds
// to another's subcommands (`profile blackthorn`, `estimate blackthorn`) takes an order after both.
// Passes over every command (ERGON_REGISTER(CliPass, ...)) run after all commands, in their own order.
#include <CLI/CLI.hpp>

#include "common/registry.hpp"

namespace ergon {

struct CliCommand {
  void (*add)(CLI::App& app);
};
struct CliPass {
  void (*apply)(CLI::App& app);
};

// Adds every registered command to `app`, then applies every pass.
void add_registered_commands(CLI::App& app);

// What main() returns when no exception was thrown. A command whose error is found after a simulation
// reports it on stderr, sets this and returns: an exception thrown once SystemC has switched stacks trips
// AddressSanitizer's unwinding hook in the sanitizer builds (a false report; google/sanitizers#189).
int& command_exit_status();

}  // namespace ergon
