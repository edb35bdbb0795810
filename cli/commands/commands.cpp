#include "cli/commands/commands.hpp"

namespace ergon {

void add_registered_commands(CLI::App& app) {
  for (const auto& command : Registry<CliCommand>::instance().items()) command.entry.add(app);
  for (const auto& pass : Registry<CliPass>::instance().items()) pass.entry.apply(app);
}

}  // namespace ergon
