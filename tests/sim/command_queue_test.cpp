// The tile-command sequencer (commands.*, arch/controller/command_queue.hpp): it runs ahead of the engines,
// so its issue cost shows only at the start of a run while each fold outlasts its commands; when commands
// cost more than the folds, the sequencer bounds the layer and the time is its issue time; a shallow store
// queue turns the end-of-layer drain into stalls between folds.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "sim/run_pipeline.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

// A 32x32 weight-stationary array with a DRAM too fast to stall: `conv` runs 54 folds (18 row folds of its
// 576-deep reduction x 3 column folds of its 96 filters), each 2R + C + T - 2 = 158 cycles for T = 64 pixels;
// its output stays on chip (glb.keep_activations), so its commands are a load and a compute per fold.
SimulationResult run_conv(std::int64_t issue_cycles) {
  static const Workload workload = [] {
    const auto path = test::unique_temp_path("ergon_commands.yaml");
    std::ofstream(path) << "name: commands\nsource: test\nlayers:\n"
                           "  - {name: image, op: input, shape: [64, 8, 8]}\n"
                           "  - {name: conv, op: conv, inputs: [image], filters: 96, kernel: 3, padding: 1}\n"
                           "  - {name: narrow, op: conv, inputs: [conv], filters: 32, kernel: 1, stride: 4}\n";
    return load_workload(path.string());
  }();
  const Chip chip(load_accelerator_config(
      test::source_dir() + "/configs/edge_tpu.yaml",
      {"pe_array.rows=32", "pe_array.cols=32", "pe_array.dataflow=ws", "dram.bandwidth_gbps=1000000",
       "dram.latency_ns=0", "glb.keep_activations=when_fits", "commands.issue_cycles=" + std::to_string(issue_cycles)}));
  return run_pipeline(chip, workload, SimulationOptions{});
}

constexpr std::uint64_t kFolds = 54, kFoldCycles = 158;

TEST(CommandQueue, FreeIssueChangesNothingAndCheapIssueOnlyDelaysTheStart) {
  const LayerResult free = run_conv(0).layers[1];
  ASSERT_EQ(free.passes, kFolds);
  for (const std::int64_t c : {10, 40}) {  // a fold's two commands take less than the fold
    const SimulationResult run = run_conv(c);
    const LayerResult& issued = run.layers[1];
    // The first load is issued after c cycles and the first compute after 2c (its data long in); the
    // sequencer then stays ahead. The one cycle the network's first data takes hides in that wait.
    EXPECT_EQ(issued.cycles, free.cycles - free.stall_cycles + 2 * static_cast<std::uint64_t>(c)) << c;
    EXPECT_EQ(run.bound_name(issued), "array") << c;
  }
}

TEST(CommandQueue, ExpensiveIssueBoundsTheLayer) {
  const std::uint64_t c = 1000;  // a fold's two commands take 2000 cycles, its compute 158
  const SimulationResult run = run_conv(static_cast<std::int64_t>(c));
  const LayerResult& issued = run.layers[1];
  // Every command waits for the one before it; the last compute runs after its issue.
  EXPECT_EQ(issued.cycles, 2 * kFolds * c + kFoldCycles);
  EXPECT_EQ(run.bound_name(issued), "sequencer");
}

// Slow DRAM writes: with a one-command store queue the sequencer waits for each write-back to land before
// issuing the next store, so the array stalls between folds instead of draining the writes at the end.
TEST(CommandQueue, AShallowStoreQueueStallsBetweenFolds) {
  const auto path = test::unique_temp_path("ergon_store_queue.yaml");
  std::ofstream(path) << "name: stores\nsource: test\nlayers:\n"
                         "  - {name: image, op: input, shape: [64, 32, 32]}\n"
                         "  - {name: pw, op: conv, inputs: [image], filters: 32, kernel: 1}\n";
  const Workload workload = load_workload(path.string());
  const auto run = [&](const std::string& depth) {
    const Chip chip(load_accelerator_config(
        test::source_dir() + "/configs/edge_tpu.yaml",
        {"pe_array.rows=32", "pe_array.cols=32", "pe_array.dataflow=os", "dram.bandwidth_gbps=1",
         "commands.store_queue_depth=" + depth}));
    return run_pipeline(chip, workload, SimulationOptions{}).layers[1];
  };
  const LayerResult unbounded = run("0"), shallow = run("1");
  EXPECT_GE(shallow.cycles, unbounded.cycles);
  EXPECT_LT(shallow.drain_stall_cycles, unbounded.drain_stall_cycles);
  EXPECT_EQ(shallow.count("dram.write"), unbounded.count("dram.write"));
}

// The sequencer sits in the controller, which both fidelities share: the cycle-accurate array is held up by
// the same issue times.
TEST(CommandQueue, BothFidelitiesWaitForTheSameCommands) {
  const Workload workload = load_workload(test::source_dir() + "/workloads/resnet8.yaml");
  const Chip chip(load_accelerator_config(test::source_dir() + "/configs/edge_tpu.yaml",
                                          {"pe_array.rows=16", "pe_array.cols=16", "commands.issue_cycles=300",
                                           "commands.store_queue_depth=1"}));
  SimulationOptions cycle_options;
  cycle_options.fidelity = Fidelity::kCycleAccurate;
  const SimulationResult cycle = run_pipeline(chip, workload, cycle_options);
  const SimulationResult tlm = run_pipeline(chip, workload, SimulationOptions{});
  std::size_t sequencer_bound = 0;
  for (std::size_t i = 0; i < tlm.layers.size(); ++i) {
    if (!tlm.layers[i].executed) continue;
    EXPECT_EQ(cycle.layers[i].cycles, tlm.layers[i].cycles) << tlm.layers[i].name;
    EXPECT_EQ(cycle.bound_name(cycle.layers[i]), tlm.bound_name(tlm.layers[i])) << tlm.layers[i].name;
    sequencer_bound += tlm.bound_name(tlm.layers[i]) == "sequencer" ? 1 : 0;
  }
  EXPECT_GT(sequencer_bound, 0u);
}

}  // namespace
}  // namespace ergon
