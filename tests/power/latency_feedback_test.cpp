// The latency feedback on hand-made timings: who owns a delay, how far a late layer is raised, and which
// layers return to the nominal levels when rounds run out.
#include "power/dvfs/latency_feedback.hpp"

#include <gtest/gtest.h>

#include "tests/test_paths.hpp"

namespace ergon {
namespace {

AcceleratorConfig edge_tpu() {
  return load_accelerator_config(test::source_dir() + "/configs/edge_tpu.yaml", {"dvfs.compute.min_voltage_v=0"});
}

// 100 us memory-bound layers: 70 us computing, 20 us hideable stall, 10 us fill.
std::vector<LayerTiming> three_layers() {
  const LayerTiming layer{"layer", true, 100000, 30000, 10000, 0, 1e6, 90000, 5e6, ResourceKind::kMemory};
  return {layer, layer, layer};
}

std::vector<LayerTiming> with_times(std::vector<LayerTiming> layers, const std::vector<double>& times_ns) {
  for (std::size_t i = 0; i < layers.size(); ++i) layers[i].time_ns = times_ns[i];
  return layers;
}

TEST(LatencyFeedback, ALateLayerIsRaisedByNewtonsStepOnItsComputeTime) {
  const AcceleratorConfig config = edge_tpu();
  const std::vector<LayerTiming> rti = three_layers();
  DvfsAllocation allocation = allocate_arada(rti, config, DvfsScheme::kIdeal);
  const double lowered_mhz = allocation.layers[0].levels.frequency_mhz;  // 500 x 70 / 90
  ASSERT_NEAR(lowered_mhz, 500.0 * 70 / 90, 1e-9);
  LatencyFeedback feedback(allocation, rti, config);
  // The first layer ran 7 us late; the others kept time.
  const std::vector<LayerTiming> scheduled = with_times(rti, {107000, 100000, 100000});
  EXPECT_FALSE(feedback.on_time(scheduled));
  EXPECT_TRUE(feedback.raise_late_layers(allocation, scheduled));
  // Slowness 90/70 less (7000 - target) / 70000, target = 0.75 x 0.8 x 0.5 % x 100 us = 300 ns.
  const double slowness = 90.0 / 70 - (7000 - 300) / 70000.0;
  EXPECT_NEAR(allocation.layers[0].levels.frequency_mhz, 500 / slowness, 1e-6);
  EXPECT_DOUBLE_EQ(allocation.layers[1].levels.frequency_mhz, lowered_mhz);  // on time: unchanged
  EXPECT_NE(allocation.layers[0].decision.find("raised"), std::string::npos);
}

TEST(LatencyFeedback, ADelayOnAFullClockLayerBelongsToTheLoweredLayerBeforeIt) {
  const AcceleratorConfig config = edge_tpu();
  const std::vector<LayerTiming> rti = three_layers();
  DvfsAllocation allocation = allocate_arada(rti, config, DvfsScheme::kIdeal);
  allocation.layers[1].levels = nominal_levels(config);  // the middle layer runs at the full clock
  LatencyFeedback feedback(allocation, rti, config);
  const std::vector<LayerTiming> scheduled = with_times(rti, {100000, 104000, 100000});
  EXPECT_TRUE(feedback.raise_late_layers(allocation, scheduled));
  EXPECT_GT(allocation.layers[0].levels.frequency_mhz, 500.0 * 70 / 90);         // the owner is raised
  EXPECT_DOUBLE_EQ(allocation.layers[2].levels.frequency_mhz, 500.0 * 70 / 90);  // not the one after
}

TEST(LatencyFeedback, RestoringReturnsTheLatestLayersToTheNominalLevels) {
  const AcceleratorConfig config = edge_tpu();
  const std::vector<LayerTiming> rti = three_layers();
  DvfsAllocation allocation = allocate_arada(rti, config, DvfsScheme::kIdeal);
  LatencyFeedback feedback(allocation, rti, config);
  const std::vector<LayerTiming> scheduled = with_times(rti, {101000, 103000, 102000});
  EXPECT_TRUE(feedback.restore_latest(allocation, scheduled, 2));
  EXPECT_EQ(allocation.layers[1].levels, nominal_levels(config));
  EXPECT_EQ(allocation.layers[2].levels, nominal_levels(config));
  EXPECT_LT(allocation.layers[0].levels.frequency_mhz, 500);
  EXPECT_EQ(allocation.restored_layers, 2);
  EXPECT_NE(allocation.layers[1].decision.find("restored"), std::string::npos);
  EXPECT_TRUE(feedback.restore_latest(allocation, scheduled, 2));
  EXPECT_FALSE(feedback.restore_latest(allocation, scheduled, 2));  // nothing left lowered
}

}  // namespace
}  // namespace ergon
