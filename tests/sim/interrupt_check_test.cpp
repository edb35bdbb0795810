// A run's interrupt check (RunObservers::interrupt_requested, Ctrl-C in the Python package): asked before
// each layer is planned and after every step, it stops the run right there with Interrupted, and the next
// run in the process is whole.
#include <gtest/gtest.h>

#include "sim/parallel/interrupt.hpp"
#include "sim/simulation.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

struct ResNet8OnEyeriss {
  AcceleratorConfig config = load_accelerator_config(test::source_dir() + "/configs/eyeriss.yaml", {});
  EnergyTable table = load_energy_table(test::source_dir() + "/power/tables/cnnergy_65nm.yaml");
  Workload workload = load_workload(test::source_dir() + "/workloads/resnet8.yaml");

  // Interrupted on the check numbered `stop_at` (1: the first); the checks asked are counted.
  std::string interrupted_at(int stop_at, int& checks) {
    SimulationOptions options;
    options.observers.interrupt_requested = [&checks, stop_at] { return ++checks == stop_at; };
    try {
      Simulation(config, table, workload, options).run();
    } catch (const Interrupted& stopped) {
      return stopped.what();
    }
    return "not interrupted";
  }
  SimulationResult whole() { return Simulation(config, table, workload, SimulationOptions{}).run(); }
};

TEST(SimulationInterrupt, StopsAtTheCheckThatAsksAndTheNextRunIsWhole) {
#if defined(__SANITIZE_ADDRESS__)
  // SystemC 2.3 does not tell AddressSanitizer of its coroutine stack switches, so an exception thrown after
  // a simulation has run (here Interrupted, after sc_stop) is misreported as stack-use-after-scope: a false
  // positive the sanitizer itself warns of. The normal build runs this test.
  GTEST_SKIP() << "an exception after sc_start is misreported by AddressSanitizer";
#endif
  ResNet8OnEyeriss run;
  const SimulationResult before = run.whole();
  const int layers = static_cast<int>(run.workload.layers().size());
  int checks = 0;
  const std::string message = run.interrupted_at(layers + 20, checks);
  EXPECT_NE(message.find("resnet8 on eyeriss interrupted in layer '"), std::string::npos) << message;
  EXPECT_EQ(checks, layers + 20);  // not asked again once stopped
  const SimulationResult after = run.whole();
  EXPECT_EQ(after.total.cycles, before.total.cycles);
  EXPECT_EQ(after.total.energy.total_pj(), before.total.energy.total_pj());
}

TEST(SimulationInterrupt, StopsWhilePlanning) {
  ResNet8OnEyeriss run;
  int checks = 0;
  const std::string message = run.interrupted_at(1, checks);
  EXPECT_NE(message.find("interrupted while mapping layer '" + run.workload.layers().front().name + "'"),
            std::string::npos)
      << message;
  EXPECT_EQ(checks, 1);
}

TEST(SimulationInterrupt, NeverAskingTrueLeavesTheRunAsItIs) {
  ResNet8OnEyeriss run;
  int checks = 0;
  EXPECT_EQ(run.interrupted_at(-1, checks), "not interrupted");
  EXPECT_GT(checks, static_cast<int>(run.workload.layers().size()));  // asked after steps too
}

}  // namespace
}  // namespace ergon
