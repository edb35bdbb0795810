// Grouped and depthwise convolutions on a systolic array (pe_array.depthwise, docs/dataflow.md): channel
// groups run several groups at once with block-diagonal filters, counting only the real weights' MACs and
// DRAM words; `auto` takes each layer's better mechanism; cycle fidelity refuses what it does not model.
#include <gtest/gtest.h>

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

TEST(SystolicDepthwise, CycleFidelityRefusesChannelGroups) {
  try {
    run({"pe_array.depthwise=channel_groups"}, Fidelity::kCycleAccurate);
    FAIL() << "expected a refusal";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("pe_array.depthwise"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace ergon
