// SCALE-Sim v2's operand traffic (docs/scalesim-reference.md, docs/config.md "Operand traffic"): the
// im2col ifmap stream, the free first fill of each buffer's active half, prefetches running ahead on their
// own port. Checked on MobileNet's first depthwise layer as SCALE-Sim's topology has it (a dense 3x3x32
// convolution with one filter), against what those assumptions imply analytically.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "network/importers/scalesim_topology.hpp"
#include "sim/simulation.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

const EnergyTable& table() {
  static const EnergyTable loaded = load_energy_table(test::source_dir() + "/power/tables/cnnergy_65nm.yaml");
  return loaded;
}

// MobileNet's Conv2 from SCALE-Sim's topology: 112x112x32 pre-padded, 3x3, one filter, stride 1.
Workload depthwise_as_dense_conv() {
  const std::string path = test::source_dir() + "/workloads/scalesim/mobilenet.csv";
  std::vector<ScaleSimLayer> layers = read_scalesim_topology(path, ScaleSimTopologyKind::kConv).layers;
  layers.erase(layers.begin());  // Conv1
  layers.resize(1);
  return parse_workload(YAML::Load(scalesim_workload_yaml(layers, "conv2", path)), path);
}

AcceleratorConfig edge_tpu(std::vector<std::string> overrides) {
  overrides.insert(overrides.begin(), {"dram.bandwidth_gbps=5", "dram.latency_ns=2"});
  return load_accelerator_config(test::source_dir() + "/configs/edge_tpu.yaml", overrides);
}

constexpr std::uint64_t kPixels = 110 * 110, kWindow = 3 * 3 * 32;
constexpr std::uint64_t kFolds = (kPixels + 63) / 64, kFoldCycles = kWindow + 64 + 64 - 2;  // OS, 64x64
constexpr std::uint64_t kFreeFillBytes = 1536 * 1024 / 2;  // the ifmap buffer's active half, 1-byte words

TEST(ScaleSimTraffic, Im2colFetchReadsTheOperandMatrix) {
  const Workload workload = depthwise_as_dense_conv();
  const AcceleratorConfig tensors_config = edge_tpu({}), im2col_config = edge_tpu({"glb.operand_fetch=im2col"});
  const SimulationResult tensors = Simulation(tensors_config, table(), workload, {}).run();
  const SimulationResult im2col = Simulation(im2col_config, table(), workload, {}).run();
  // Each output pixel's window apart, against the input rows each fold of 64 pixels touches.
  EXPECT_EQ(im2col.layers[1].count("dram.read"), kPixels * kWindow + kWindow);
  EXPECT_LT(tensors.layers[1].count("dram.read"), im2col.layers[1].count("dram.read"));
  EXPECT_EQ(im2col.layers[1].compute_cycles, tensors.layers[1].compute_cycles);
}

// SCALE-Sim's read buffer times each prefetch from the end of the one before, so a stream stalls the array
// only by its cumulative deficit: (stream - free fill) / bandwidth, less the compute it overlaps.
TEST(ScaleSimTraffic, RunAheadStreamsStallByTheirCumulativeDeficit) {
  const Workload workload = depthwise_as_dense_conv();
  const AcceleratorConfig config =
      edge_tpu({"glb.operand_fetch=im2col", "glb.first_fill=free", "glb.prefetch=run_ahead", "dram.impl=streams"});
  const SimulationResult result = Simulation(config, table(), workload, {}).run();
  const LayerResult& layer = result.layers[1];
  const double stream_cycles = static_cast<double>(kPixels * kWindow - kFreeFillBytes) / 5.0 /* B/ns */ * 0.5;
  const double expected_stall = stream_cycles + kFoldCycles - static_cast<double>(kFolds * kFoldCycles);
  EXPECT_NEAR(static_cast<double>(layer.stall_cycles), expected_stall, 0.01 * expected_stall);
  EXPECT_EQ(layer.fill_stall_cycles, 0u);                            // the first folds' data arrived before the layer
  EXPECT_EQ(layer.count("dram.read"), kPixels * kWindow + kWindow);  // the free fill is still traffic

  // Without the run-ahead each fold's fetch waits for a free buffer half: every fold past the free fill
  // stalls for its own transfer less the fold before's compute, which is more.
  const AcceleratorConfig double_buffered_config =
      edge_tpu({"glb.operand_fetch=im2col", "glb.first_fill=free", "dram.impl=streams"});
  const SimulationResult double_buffered = Simulation(double_buffered_config, table(), workload, {}).run();
  EXPECT_GT(double_buffered.layers[1].stall_cycles, layer.stall_cycles);
}

// Each stream has a port of its own: fetching filters beside the ifmaps costs no time, where one shared
// bus serialises them.
TEST(ScaleSimTraffic, StreamsDoNotShareBandwidth) {
  const Workload workload = depthwise_as_dense_conv();
  const std::vector<std::string> base = {"glb.operand_fetch=im2col", "glb.prefetch=run_ahead"};
  std::vector<std::string> streams = base, simple = base;
  streams.push_back("dram.impl=streams");
  const AcceleratorConfig separate_config = edge_tpu(streams), shared_config = edge_tpu(simple);
  const SimulationResult separate = Simulation(separate_config, table(), workload, {}).run();
  const SimulationResult shared = Simulation(shared_config, table(), workload, {}).run();
  EXPECT_EQ(separate.layers[1].count("dram.read"), shared.layers[1].count("dram.read"));
  // The output writes (one word per pixel) share the bus with the reads only in `simple`.
  EXPECT_LT(separate.layers[1].cycles, shared.layers[1].cycles);
}

}  // namespace
}  // namespace ergon
