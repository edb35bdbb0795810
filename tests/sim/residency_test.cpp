// Activations kept on chip (glb.keep_activations, sim/residency_plan.hpp): what the GLB keeps is exactly what
// no longer crosses the DRAM, layer by layer, outputs read by a residual branch included; a larger buffer
// keeps more; the systolic cycle array keeps the same.
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
const std::vector<std::string> kNever = {"glb.keep_activations=never"};

// The Edge TPU stores activations raw, so bytes kept on chip and bytes not moved to or from DRAM are the same
// figure: per layer, DRAM reads plus bytes found on chip equal the reads with nothing kept, and so do writes.
TEST(Residency, WhatStaysOnChipIsWhatNoLongerCrossesTheDram) {
  const SimulationResult never = run_on_edge_tpu(kNever);
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
  const std::uint64_t never = run_on_edge_tpu(kNever).total.dram_bytes();
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

// docs/architectures.md's buffer sweep on edge_tpu: MobileNetV2's DRAM traffic falls more than 2x from 256 KiB
// to 8 MiB when outputs stay on chip (the figures the page prints), and not at all without.
TEST(Residency, MobileNetV2OnTheEdgeTpuFallsWithTheBuffer) {
  const Workload workload = load_workload(test::source_dir() + "/workloads/mobilenet_v2.yaml");
  const auto dram_bytes = [&](const std::string& kib, const std::string& keep) {
    const Chip chip(load_accelerator_config(
        test::source_dir() + "/configs/edge_tpu.yaml",
        {"glb.size_kib=" + kib, "glb.ofmap_size_kib=0", "glb.keep_activations=" + keep}));
    return run_pipeline(chip, workload, SimulationOptions{}).total.dram_bytes();
  };
  const std::uint64_t small = dram_bytes("256", "when_fits"), large = dram_bytes("8192", "when_fits");
  EXPECT_EQ(small, 18628840u);
  EXPECT_EQ(dram_bytes("1024", "when_fits"), 7805160u);
  EXPECT_EQ(dram_bytes("2560", "when_fits"), 3977448u);
  EXPECT_EQ(large, 3977448u);
  EXPECT_GE(small, 2 * large);
  EXPECT_EQ(dram_bytes("256", "never"), 25415912u);
  EXPECT_EQ(dram_bytes("8192", "never"), 25415912u);
}

// The systolic cycle array takes its deposits and write-backs from the steps the residency trimmed: per
// layer it moves exactly the DRAM bytes, and finds the bytes on chip, of the transaction-level run, and its
// outputs are the network's.
TEST(Residency, CycleFidelityKeepsWhatTheTransactionLevelKeeps) {
  const Chip chip(load_accelerator_config(
      test::source_dir() + "/configs/edge_tpu.yaml",
      {"glb.keep_activations=when_fits", "glb.keep_weights=when_fits", "pe_array.rows=16", "pe_array.cols=16"}));
  SimulationOptions options;
  options.fidelity = Fidelity::kCycleAccurate;
  const SimulationResult cycle = run_pipeline(chip, resnet8(), options);
  const SimulationResult tlm = run_pipeline(chip, resnet8(), SimulationOptions{});
  ASSERT_EQ(cycle.layers.size(), tlm.layers.size());
  ASSERT_TRUE(cycle.total.activations_on_chip.has_value());
  EXPECT_GT(cycle.total.activations_on_chip->output_bytes_kept, 0u);
  EXPECT_GT(cycle.total.activations_on_chip->weight_bytes_found, 0u);
  for (std::size_t i = 0; i < cycle.layers.size(); ++i) {
    const LayerResult &c = cycle.layers[i], &t = tlm.layers[i];
    if (!t.executed) continue;
    EXPECT_EQ(c.count("dram.read"), t.count("dram.read")) << c.name;
    EXPECT_EQ(c.count("dram.write"), t.count("dram.write")) << c.name;
    EXPECT_EQ(c.activations_on_chip->input_bytes_found, t.activations_on_chip->input_bytes_found) << c.name;
    EXPECT_EQ(c.activations_on_chip->output_bytes_kept, t.activations_on_chip->output_bytes_kept) << c.name;
    EXPECT_EQ(c.activations_on_chip->weight_bytes_found, t.activations_on_chip->weight_bytes_found) << c.name;
    if (c.op == "conv" || c.op == "fc") {
      EXPECT_TRUE(c.output_checked) << c.name;
      EXPECT_EQ(c.output_mismatches, 0u) << c.name;
    }
  }
}

// The row-stationary cycle array counts its own deposits, so it refuses a setting it would not follow.
TEST(Residency, TheRowStationaryCycleArrayRefusesResidency) {
  const Chip chip(load_accelerator_config(test::source_dir() + "/configs/eyeriss.yaml", kWhenFits));
  SimulationOptions options;
  options.fidelity = Fidelity::kCycleAccurate;
  try {
    run_pipeline(chip, resnet8(), options);
    FAIL() << "expected a refusal";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("glb.keep_activations"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("row_stationary"), std::string::npos) << error.what();
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
