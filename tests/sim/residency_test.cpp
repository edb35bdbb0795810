// Activations kept on chip (glb.keep_activations, sim/residency_plan.hpp): what the GLB keeps is exactly what
// no longer crosses the DRAM, layer by layer, outputs read by a residual branch included; a larger buffer
// keeps more; cycle fidelity refuses the setting.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/run_pipeline.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

const Workload& resnet8() {  // a residual network: outputs read by two layers
  static const Workload loaded = load_workload(test::source_dir() + "/workloads/resnet8.yaml");
  return loaded;
}

SimulationResult run_on_edge_tpu(const std::vector<std::string>& overrides) {
  const Chip chip(load_accelerator_config(test::source_dir() + "/configs/edge_tpu.yaml", overrides));
  return run_pipeline(chip, resnet8(), SimulationOptions{});
}

const std::vector<std::string> kWhenFits = {"glb.keep_activations=when_fits"};

// The Edge TPU stores activations raw, so bytes kept on chip and bytes not moved to or from DRAM are the same
// figure: per layer, DRAM reads plus bytes found on chip equal the reads with nothing kept, and so do writes.
TEST(Residency, WhatStaysOnChipIsWhatNoLongerCrossesTheDram) {
  const SimulationResult never = run_on_edge_tpu({});
  const SimulationResult kept = run_on_edge_tpu(kWhenFits);
  ASSERT_EQ(never.layers.size(), kept.layers.size());
  ASSERT_TRUE(kept.total.activations_on_chip.has_value());
  EXPECT_FALSE(never.total.activations_on_chip.has_value()) << "never: reports as before";
  for (std::size_t i = 0; i < kept.layers.size(); ++i) {
    const LayerResult &a = never.layers[i], &b = kept.layers[i];
    if (!b.executed) continue;
    ASSERT_TRUE(b.activations_on_chip.has_value()) << b.name;
    EXPECT_EQ(a.count("dram.read"), b.count("dram.read") + b.activations_on_chip->input_bytes_found) << b.name;
    EXPECT_EQ(a.count("dram.write"), b.count("dram.write") + b.activations_on_chip->output_bytes_kept) << b.name;
    EXPECT_EQ(a.macs, b.macs) << b.name;
  }
  const LayerResult::ActivationsOnChip& total = *kept.total.activations_on_chip;
  EXPECT_GT(total.output_bytes_kept, 0u);
  // Every kept byte is read by at least one consumer (a residual input by two).
  EXPECT_GE(total.input_bytes_found, total.output_bytes_kept);
  EXPECT_LT(kept.total.dram_bytes(), never.total.dram_bytes());
}

TEST(Residency, ALargerBufferKeepsMore) {
  const std::uint64_t never = run_on_edge_tpu({}).total.dram_bytes();
  std::uint64_t previous_dram = never, previous_kept = 0;
  for (const char* kib : {"16", "64", "256", "4096"}) {
    const SimulationResult run =
        run_on_edge_tpu({"glb.keep_activations=when_fits", std::string("glb.size_kib=") + kib, "glb.ofmap_size_kib=0"});
    const std::uint64_t kept = run.total.activations_on_chip->output_bytes_kept;
    EXPECT_LE(run.total.dram_bytes(), previous_dram) << kib << " KiB";
    EXPECT_GE(kept, previous_kept) << kib << " KiB";
    previous_dram = run.total.dram_bytes(), previous_kept = kept;
  }
  EXPECT_LT(previous_dram, never / 2) << "at 4 MiB every activation stays on chip";
}

TEST(Residency, CycleFidelityRefusesWhatItDoesNotModel) {
  const Chip chip(load_accelerator_config(test::source_dir() + "/configs/edge_tpu.yaml", kWhenFits));
  SimulationOptions options;
  options.fidelity = Fidelity::kCycleAccurate;
  try {
    run_pipeline(chip, resnet8(), options);
    FAIL() << "expected a refusal";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("glb.keep_activations"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace ergon

namespace ergon {
namespace {

// glb.keep_weights: weights cached across inferences leave the DRAM traffic, layer by layer, by exactly the
// bytes reported found on chip; a cache too small for all of them keeps the first layers' and streams the
// rest; the roofline bound still holds.
TEST(Residency, CachedWeightsAreTheWeightsNoLongerRead) {
  const auto run = [](const std::vector<std::string>& extra) {
    std::vector<std::string> overrides = {"glb.fold_reuse=capacity"};
    overrides.insert(overrides.end(), extra.begin(), extra.end());
    return run_on_edge_tpu(overrides);
  };
  const auto weight_reads = [](const LayerResult& layer) {
    return layer.count(tensor_counter_spec(Action::kDramRead, Tensor::kWeights).name);
  };
  const SimulationResult streamed = run({});
  const SimulationResult cached = run({"glb.keep_weights=when_fits"});
  std::uint64_t found = 0;
  for (std::size_t i = 0; i < cached.layers.size(); ++i) {
    const LayerResult &a = streamed.layers[i], &b = cached.layers[i];
    if (!b.executed) continue;
    ASSERT_TRUE(b.activations_on_chip.has_value()) << b.name;
    EXPECT_EQ(weight_reads(b), 0u) << b.name << ": resnet8's weights all fit 4 MiB";
    EXPECT_EQ(weight_reads(a), b.activations_on_chip->weight_bytes_found) << b.name;
    EXPECT_EQ(a.count("dram.read"), b.count("dram.read") + b.activations_on_chip->weight_bytes_found) << b.name;
    found += b.activations_on_chip->weight_bytes_found;
  }
  EXPECT_EQ(cached.total.activations_on_chip->weight_bytes_found, found);
  EXPECT_GT(found, 0u);
  // 80 KiB holds some of resnet8's 78 K weights beside the staging: the first layers' stay, the rest stream.
  const SimulationResult partial = run({"glb.keep_weights=when_fits", "glb.size_kib=80", "glb.ofmap_size_kib=16"});
  bool streaming = false;
  for (const LayerResult& layer : partial.layers) {
    if (!layer.executed || layer.op != "conv") continue;
    if (weight_reads(layer) > 0) streaming = true;
    EXPECT_FALSE(streaming && layer.activations_on_chip->weight_bytes_found > 0)
        << layer.name << ": cached after a layer that streams";
  }
  EXPECT_TRUE(streaming);
  EXPECT_GT(partial.total.activations_on_chip->weight_bytes_found, 0u);
}

}  // namespace
}  // namespace ergon
