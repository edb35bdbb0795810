// Systolic array modes (docs/dataflow.md): grouped and depthwise convolutions (pe_array.depthwise) and
// pipelined folds (pe_array.pipelined_folds). Channel groups run several groups at once with block-diagonal
// filters, counting only the real weights' MACs and DRAM words; `auto` takes each layer's better mechanism;
// cycle fidelity refuses what it does not model.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "dataflows/loop_nest.hpp"
#include "sim/run_pipeline.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

const Workload& mobilenet_v1() {
  static const Workload loaded = load_workload(test::source_dir() + "/workloads/mobilenet_v1.yaml");
  return loaded;
}

SimulationResult run(const std::vector<std::string>& overrides, Fidelity fidelity = Fidelity::kTransactionLevel) {
  const Chip chip(load_accelerator_config(test::source_dir() + "/configs/edge_tpu.yaml", overrides));
  SimulationOptions options;
  options.fidelity = fidelity;
  return run_pipeline(chip, mobilenet_v1(), options);
}

TEST(SystolicDepthwise, ChannelGroupsCountTheLayersWorkAndRunDepthwiseFaster) {
  // Roomy capacity-managed buffers: every weight is read from DRAM exactly once.
  const std::vector<std::string> roomy = {"glb.fold_reuse=capacity", "glb.size_kib=16384", "glb.ofmap_size_kib=4096",
                                          "glb.filter_size_kib=8192"};
  std::vector<std::string> grouped = roomy;
  grouped.push_back("pe_array.depthwise=channel_groups");
  const SimulationResult serial = run(roomy), channel_groups = run(grouped);
  EXPECT_EQ(channel_groups.total.macs, mobilenet_v1().total_macs());
  std::size_t depthwise_layers = 0;
  for (std::size_t i = 0; i < serial.layers.size(); ++i) {
    const LayerResult &a = serial.layers[i], &b = channel_groups.layers[i];
    const Layer* layer = mobilenet_v1().find_layer(a.name);
    if (!a.executed || layer->op != OpKind::kConv) continue;
    const LoopNest nest = loop_nest_of(*layer, 1);
    EXPECT_EQ(a.macs, b.macs) << a.name;
    EXPECT_EQ(b.count(tensor_counter_spec(Action::kDramRead, Tensor::kWeights).name),
              static_cast<std::uint64_t>(nest.groups * nest.filters * nest.channels * nest.filter_h * nest.filter_w))
        << a.name;
    if (nest.groups == 1) {
      // Dense layers run as before; only their overlap with the layer before moves.
      EXPECT_NEAR(static_cast<double>(a.cycles), static_cast<double>(b.cycles), 0.001 * static_cast<double>(a.cycles))
          << a.name;
      EXPECT_FALSE(b.mapping->parameters.contains("channel_groups")) << a.name;
      continue;
    }
    ++depthwise_layers;
    EXPECT_GT(b.mapping->parameters.at("channel_groups").get<std::int64_t>(), 1) << a.name;
    EXPECT_LT(b.cycles, a.cycles) << a.name;
  }
  EXPECT_EQ(depthwise_layers, 13u);
}

// `auto` ranks serial and channel groups per layer by mapper.objective: the network costs no more energy than
// under either mechanism alone (within the estimate's slack).
TEST(SystolicDepthwise, AutoIsNoWorseThanEitherMechanism) {
  const double automatic = run({"pe_array.depthwise=auto"}).total.energy.total_pj();
  for (const char* mode : {"serial", "channel_groups"}) {
    EXPECT_LE(automatic, 1.01 * run({std::string("pe_array.depthwise=") + mode}).total.energy.total_pj()) << mode;
  }
}

// Cycle fidelity refuses `setting`, naming `key`.
void expect_cycle_fidelity_refuses(const std::string& setting, const std::string& key) {
  try {
    run({setting}, Fidelity::kCycleAccurate);
    FAIL() << "expected a refusal of " << setting;
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find(key), std::string::npos) << error.what();
  }
}

TEST(SystolicDepthwise, CycleFidelityRefusesChannelGroups) {
  expect_cycle_fidelity_refuses("pe_array.depthwise=channel_groups", "pe_array.depthwise");
}

}  // namespace
}  // namespace ergon

namespace ergon {
namespace {

// pe_array.pipelined_folds: with a DRAM too fast to stall, a layer of F folds of T streamed steps on an R x C
// weight-stationary array takes F (2R + C + T - 2) cycles one fold at a time (SCALE-Sim), and
// R + F T + (F - 1) max(R - T, 0) + R + C - 2 pipelined: the first shift-in, the streams back to back (each
// next shift-in hidden behind them when T >= R), and one skew.
TEST(SystolicPipelinedFolds, ShiftInAndSkewOverlapTheNeighbouringFolds) {
  const auto path = test::unique_temp_path("ergon_pipelined.yaml");
  std::ofstream(path) << "name: pipelined\nsource: test\nlayers:\n"
                         "  - {name: image, op: input, shape: [64, 8, 8]}\n"
                         "  - {name: conv, op: conv, inputs: [image], filters: 96, kernel: 3, padding: 1}\n"
                         "  - {name: narrow, op: conv, inputs: [conv], filters: 32, kernel: 1, stride: 4}\n";
  const Workload workload = load_workload(path.string());
  const std::int64_t r = 32, c = 32;
  const auto cycles = [&](bool pipelined) {
    const Chip chip(load_accelerator_config(
        test::source_dir() + "/configs/edge_tpu.yaml",
        {"pe_array.rows=32", "pe_array.cols=32", "pe_array.dataflow=ws", "dram.bandwidth_gbps=1000000",
         "dram.latency_ns=0", std::string("pe_array.pipelined_folds=") + (pipelined ? "true" : "false")}));
    const SimulationResult result = run_pipeline(chip, workload, SimulationOptions{});
    return std::pair{result.layers[1].cycles, result.layers[2].cycles};
  };
  // conv: K = 576 -> 18 row folds, M = 96 -> 3 column folds, T = 64 pixels. narrow: K = 96 -> 3, M = 32 -> 1,
  // T = 4 pixels (shorter than the shift-in).
  const auto expected = [&](std::int64_t folds, std::int64_t t, bool pipelined) {
    if (!pipelined) return static_cast<std::uint64_t>(folds * (2 * r + c + t - 2));
    return static_cast<std::uint64_t>(r + folds * t + (folds - 1) * std::max<std::int64_t>(r - t, 0) + r + c - 2);
  };
  const auto [conv_serial, narrow_serial] = cycles(false);
  const auto [conv_pipelined, narrow_pipelined] = cycles(true);
  // The network's first layer waits one cycle for its first data, however fast the DRAM.
  EXPECT_EQ(conv_serial, expected(54, 64, false) + 1);
  EXPECT_EQ(narrow_serial, expected(3, 4, false));
  EXPECT_EQ(conv_pipelined, expected(54, 64, true) + 1);
  EXPECT_EQ(narrow_pipelined, expected(3, 4, true));
}

TEST(SystolicPipelinedFolds, CycleFidelityRefusesThem) {
  expect_cycle_fidelity_refuses("pe_array.pipelined_folds=true", "pe_array.pipelined_folds");
}

}  // namespace
}  // namespace ergon
