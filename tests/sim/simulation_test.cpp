// The transaction-level simulator: results emerge from the modules (stalls follow DRAM bandwidth),
// counts are consistent, runs are deterministic and repeatable in one process.
#include "sim/simulation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>

#include "arch/components.hpp"
#include "common/input_error.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

AcceleratorConfig eyeriss(const std::vector<std::string>& overrides = {}) {
  return load_accelerator_config(test::source_dir() + "/configs/eyeriss.yaml", overrides);
}

const EnergyTable& table() {
  static const EnergyTable loaded = load_energy_table(test::source_dir() + "/power/tables/cnnergy_65nm.yaml");
  return loaded;
}

const Workload& alexnet() {
  static const Workload loaded = load_workload(test::source_dir() + "/workloads/alexnet.yaml");
  return loaded;
}

SimulationResult simulate(const AcceleratorConfig& config, const Workload& workload, std::int64_t batch = 1) {
  SimulationOptions options;
  options.batch = batch;
  return Simulation(config, table(), workload, options).run();
}

TEST(Simulation, ExecutesEveryMacOfThePeArrayLayers) {
  const SimulationResult result = simulate(eyeriss(), alexnet(), 2);
  for (std::size_t i = 0; i < alexnet().layers().size(); ++i) {
    const Layer& layer = alexnet().layers()[i];
    const LayerResult& simulated = result.layers[i];
    if (layer.op == OpKind::kConv || layer.op == OpKind::kFullyConnected) {
      ASSERT_TRUE(simulated.executed) << layer.name;
      EXPECT_EQ(simulated.macs, 2 * layer.macs) << layer.name;
      EXPECT_GT(simulated.cycles, 0u);
      EXPECT_LE(simulated.utilization, 1.0);
      EXPECT_LE(simulated.active_pes, 168u);
      EXPECT_GT(simulated.count("dram.read"), 0u);
      EXPECT_GT(simulated.energy.total_pj(), 0.0);
      // No PE does more than one MAC per cycle.
      EXPECT_GE(simulated.cycles * 168, simulated.macs) << layer.name;
    }
  }
  std::uint64_t pooling_operations = 0;
  for (const auto& layer : result.layers) pooling_operations += layer.op == "maxpool" ? layer.vector_ops : 0;
  EXPECT_GT(pooling_operations, 0u);  // pooling windows are vector operations, not MACs
  EXPECT_EQ(result.total.macs, 2 * alexnet().total_macs());
  EXPECT_EQ(result.total.vector_ops, 2 * alexnet().total_vector_ops());
}

TEST(Simulation, IsDeterministicAndRepeatableInOneProcess) {
  const SimulationResult first = simulate(eyeriss(), alexnet());
  const SimulationResult second = simulate(eyeriss(), alexnet());
  ASSERT_EQ(first.layers.size(), second.layers.size());
  for (std::size_t i = 0; i < first.layers.size(); ++i) {
    EXPECT_EQ(first.layers[i].cycles, second.layers[i].cycles);
    EXPECT_EQ(first.layers[i].count("dram.read"), second.layers[i].count("dram.read"));
    EXPECT_DOUBLE_EQ(first.layers[i].energy.total_pj(), second.layers[i].energy.total_pj());
  }
}

TEST(Simulation, StallsEmergeFromDramBandwidth) {
  const SimulationResult slow = simulate(eyeriss({"dram.bandwidth_gbps=0.2"}), alexnet());
  const SimulationResult nominal = simulate(eyeriss(), alexnet());
  const SimulationResult fast = simulate(eyeriss({"dram.bandwidth_gbps=100", "dram.latency_ns=0"}), alexnet());
  EXPECT_GT(slow.total.stall_cycles, nominal.total.stall_cycles);
  EXPECT_GT(nominal.total.stall_cycles, fast.total.stall_cycles);
  EXPECT_GT(slow.total.cycles, nominal.total.cycles);
  // Bandwidth changes time; traffic only where the mapper chose another mapping for the slower DRAM (a
  // longer run costs clock energy, so the energy objective weighs DRAM traffic against time; with a fast
  // DRAM it may take a mapping that computes longer but moves less).
  int same_mapping = 0;
  for (std::size_t i = 0; i < nominal.layers.size(); ++i) {
    const LayerResult &a = nominal.layers[i], &b = fast.layers[i];
    if (!a.mapping || !b.mapping || a.mapping->parameters != b.mapping->parameters) continue;
    ++same_mapping;
    EXPECT_GE(a.cycles, b.cycles) << a.name;
    EXPECT_EQ(a.count("dram.read"), b.count("dram.read")) << a.name;
    EXPECT_EQ(a.count("glb.read"), b.count("glb.read")) << a.name;
  }
  EXPECT_GT(same_mapping, 0);
  // A slow DRAM makes the layer memory bound: its cycles are at least its DRAM transfer time.
  const double bytes_per_cycle = 0.2e9 / 200e6;
  EXPECT_GE(static_cast<double>(slow.total.cycles),
            static_cast<double>(slow.total.count("dram.read") + slow.total.count("dram.write")) / bytes_per_cycle);
}

TEST(Simulation, SparsityGatesMacsAndCompressesDramTraffic) {
  const Workload dense = load_workload(test::source_dir() + "/workloads/cnnergy/alexnet.yaml");
  const SimulationResult result = simulate(eyeriss(), dense);
  const LayerResult& conv3 = result.layers[5];  // input, conv1, input, conv2, input, conv3
  ASSERT_EQ(conv3.name, "conv3");
  EXPECT_LT(conv3.nonzero_macs, conv3.macs);
  EXPECT_NEAR(static_cast<double>(conv3.nonzero_macs) / static_cast<double>(conv3.macs), 1 - 0.725, 0.01);
}

// The shipped ImageNet networks carry CNNergy's per-layer activation sparsity (scripts/gen_workloads.py).
TEST(Simulation, ShippedNetworksDeclareTheirSparsity) {
  for (const char* name : {"alexnet", "vgg16", "squeezenet_v1_1", "googlenet_v1"}) {
    const Workload workload = load_workload(test::source_dir() + "/workloads/" + name + ".yaml");
    int convs = 0, sparse = 0;
    for (const Layer& layer : workload.layers()) {
      if (layer.op != OpKind::kConv && layer.op != OpKind::kFullyConnected) continue;
      ++convs;
      sparse += layer.sparsity.ofmap > 0 || layer.sparsity.ifmap > 0 ? 1 : 0;
    }
    EXPECT_EQ(sparse, convs) << name;  // every conv and fc has a row in its CNNergy table
  }
}

// Zero gating saves MAC energy, not cycles: on the same mapping the array computes as long whether the
// operands are zero or not; only the DRAM traffic (run-length coded) and the stalls it causes change.
TEST(Simulation, ZeroGatingSavesEnergyNotCycles) {
  std::ifstream file(test::source_dir() + "/workloads/alexnet.yaml");
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const std::string dense_text = std::regex_replace(text, std::regex(", sparsity: \\{[^}]*\\}"), "");
  ASSERT_NE(dense_text, text);
  const auto dense_path = test::unique_temp_path("ergon_dense_alexnet.yaml");
  std::ofstream(dense_path) << dense_text;
  const SimulationResult sparse = simulate(eyeriss(), alexnet());
  const SimulationResult dense = simulate(eyeriss(), load_workload(dense_path.string()));
  int compared = 0;
  for (std::size_t i = 0; i < sparse.layers.size(); ++i) {
    const LayerResult &s = sparse.layers[i], &d = dense.layers[i];
    if (!s.mapping || !d.mapping || s.mapping->parameters != d.mapping->parameters || s.op != "conv") continue;
    ++compared;
    EXPECT_EQ(s.cycles - s.stall_cycles, d.cycles - d.stall_cycles) << s.name;
    EXPECT_EQ(s.macs, d.macs) << s.name;
    EXPECT_LT(s.nonzero_macs, d.nonzero_macs) << s.name;
    EXPECT_LT(s.energy.component_pj("mac"), d.energy.component_pj("mac")) << s.name;
    EXPECT_LE(s.count("dram.read"), d.count("dram.read")) << s.name;  // coded only where smaller than raw
  }
  EXPECT_GT(compared, 0);
}

TEST(Simulation, StreamsElementWiseLayersThroughTheMemories) {
  const Workload resnet = load_workload(test::source_dir() + "/workloads/resnet18.yaml");
  const SimulationResult result = simulate(eyeriss(), resnet);
  std::size_t adds = 0;
  for (std::size_t i = 0; i < resnet.layers().size(); ++i) {
    const Layer& layer = resnet.layers()[i];
    const LayerResult& simulated = result.layers[i];
    if (layer.op == OpKind::kAdd) {
      ++adds;
      ASSERT_TRUE(simulated.executed) << layer.name;
      const auto words = static_cast<std::uint64_t>(layer.output_shape.elements());
      EXPECT_GE(simulated.count("dram.read"), 2 * words * 2) << "both inputs, raw (dense data is not coded)";
      EXPECT_GT(simulated.count("dram.write"), 0u);
      EXPECT_GT(simulated.cycles, simulated.count("dram.read") / 8) << "bounded by a 1.6 GB/s DRAM at 200 MHz";
    } else if (layer.op == OpKind::kActivation) {
      EXPECT_FALSE(simulated.executed);
      EXPECT_EQ(simulated.cycles, 0u);
    }
  }
  EXPECT_EQ(adds, 8u);
}

TEST(Simulation, ReportsAGlobalBufferTooSmallForALayer) {
  try {
    simulate(eyeriss({"glb.size_kib=0.01"}), alexnet());
    FAIL() << "expected an error";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("(conv1)"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("glb.size_kib"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace ergon

namespace ergon {
namespace {

// The activity stream accounts for every MAC and DRAM byte, in time order, in both fidelities.
void expect_consistent_activity(Fidelity fidelity, const std::string& workload_file) {
  const Workload workload = load_workload(test::source_dir() + "/workloads/" + workload_file);
  std::vector<ActivityInterval> intervals;
  SimulationOptions options;
  options.fidelity = fidelity;
  options.observers.activity = [&](const ActivityInterval& interval) { intervals.push_back(interval); };
  const SimulationResult result = Simulation(eyeriss(), table(), workload, options).run();
  std::uint64_t macs = 0, dram_bytes = 0, end = 0, busy_cycles = 0;
  for (const auto& interval : intervals) {
    EXPECT_GE(interval.start_cycle, end) << "intervals overlap or go back in time";
    EXPECT_GT(interval.end_cycle, interval.start_cycle);
    EXPECT_LE(interval.active_pes, 168u);
    end = interval.end_cycle;
    // Pools run on the PEs too; their comparisons are vector_ops, not MACs.
    const OpKind op = workload.layers()[interval.layer_index].op;
    macs += op == OpKind::kConv || op == OpKind::kFullyConnected ? interval.macs : 0;
    dram_bytes += interval.dram_bytes;
    busy_cycles += interval.stall ? 0 : interval.end_cycle - interval.start_cycle;
  }
  EXPECT_EQ(macs, result.total.nonzero_macs);
  EXPECT_EQ(dram_bytes, result.total.count("dram.read") + result.total.count("dram.write"));
  EXPECT_LE(end, result.total.cycles);
  EXPECT_GT(busy_cycles, result.total.cycles / 2);
}

TEST(Activity, AccountsForAllWorkAtTransactionLevel) {
  expect_consistent_activity(Fidelity::kTransactionLevel, "cnnergy/squeezenet_v1_1.yaml");
}
TEST(Activity, AccountsForAllWorkCycleByCycle) {
  expect_consistent_activity(Fidelity::kCycleAccurate, "resnet8.yaml");
}

}  // namespace
}  // namespace ergon

namespace ergon {
namespace {

// module_counter_specs (what sweeps and pre-run checks list) is what a run's modules register, for every
// DRAM implementation.
TEST(Simulation, ModuleCounterSpecsAreTheCountersARunRegisters) {
  const Workload resnet8 = load_workload(test::source_dir() + "/workloads/resnet8.yaml");
  for (const std::string& impl : dram_impl_names()) {
    const AcceleratorConfig config = load_accelerator_config(test::source_dir() + "/configs/hpc_tpu.yaml",
                                                             {"dram.preset=ddr5-4800", "dram.impl=" + impl});
    const SimulationResult result = Simulation(config, table(), resnet8, {}).run();
    const std::vector<CounterSpec> listed = module_counter_specs(config);
    ASSERT_EQ(result.counters.size(), listed.size()) << impl;
    for (std::size_t i = 0; i < listed.size(); ++i) {
      EXPECT_EQ(result.counters[i].name, listed[i].name) << impl;
      EXPECT_EQ(result.counters[i].column, listed[i].column) << impl;
      EXPECT_EQ(result.counters[i].unit, listed[i].unit) << impl;
    }
    for (const CounterSpec& spec : listed) {
      const auto& every = every_module_counter_spec();
      EXPECT_TRUE(std::any_of(every.begin(), every.end(), [&](const CounterSpec& c) { return c.name == spec.name; }))
          << spec.name;
    }
  }
}

}  // namespace
}  // namespace ergon

namespace ergon {
namespace {

// Progress within a layer (docs/cli.md, "Progress"): every step of a layer reaches the step observer, in
// time order, and the steps' MACs add up to the layer's, so a display can show a long layer's share done.
TEST(Simulation, ReportsEveryStepOfALayerToItsObserver) {
  std::map<std::size_t, std::uint64_t> macs_of, steps_of;
  std::size_t last_layer = 0;
  std::uint64_t last_cycle = 0;
  SimulationOptions options;
  options.observers.step_done = [&](std::size_t layer_index, std::uint64_t macs, std::uint64_t cycle) {
    EXPECT_GE(layer_index, last_layer);
    EXPECT_GE(cycle, last_cycle);
    last_layer = layer_index;
    last_cycle = cycle;
    macs_of[layer_index] += macs;
    ++steps_of[layer_index];
  };
  const SimulationResult result = Simulation(eyeriss(), table(), alexnet(), options).run();
  for (std::size_t i = 0; i < result.layers.size(); ++i) {
    if (result.layers[i].macs == 0) continue;
    EXPECT_EQ(macs_of[i], result.layers[i].macs) << result.layers[i].name;
    EXPECT_GT(steps_of[i], 1u) << result.layers[i].name << " is reported only at its end";
  }
  EXPECT_LE(last_cycle, result.total.cycles);
}

}  // namespace
}  // namespace ergon
