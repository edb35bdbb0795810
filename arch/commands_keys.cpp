// commands: the sequencer that issues each step's load, compute and store commands (docs/simulator.md).
#include <limits>

#include "arch/config_keys.hpp"

namespace ergon {
namespace {

constexpr IntRule kIssueCycles{0, 1'000'000};
constexpr IntRule kQueueDepth{0, std::numeric_limits<std::int32_t>::max()};

AcceleratorConfigSection commands_keys() {
  AcceleratorConfigSection section = config_section("commands");
  section.keys = {
      int_key<AcceleratorConfig>("commands.issue_cycles", ERGON_FIELD(commands.issue_cycles), kIssueCycles, "cycles",
                                 "compute-clock cycles the sequencer takes to issue one command (a step's load, "
                                 "compute or store), in program order, running ahead of the engines; 0: free (no "
                                 "engine publishes its cost)"),
      int_key<AcceleratorConfig>("commands.load_queue_depth", ERGON_FIELD(commands.load_queue_depth), kQueueDepth,
                                 "commands",
                                 "load commands issued and not yet started that the load engine's queue holds; the "
                                 "sequencer waits while it is full; 0: unbounded"),
      int_key<AcceleratorConfig>("commands.compute_queue_depth", ERGON_FIELD(commands.compute_queue_depth), kQueueDepth,
                                 "commands",
                                 "compute commands issued and not yet started that the array's queue holds; 0: "
                                 "unbounded"),
      int_key<AcceleratorConfig>("commands.store_queue_depth", ERGON_FIELD(commands.store_queue_depth), kQueueDepth,
                                 "commands",
                                 "store commands issued and not yet landed in DRAM that the store engine's queue "
                                 "holds; 0: unbounded"),
  };
  return section;
}

}  // namespace
}  // namespace ergon

ERGON_REGISTER(ergon::AcceleratorConfigSection, "commands", ergon::commands_keys(), ergon::config_order::kCommands)
