// ARADA's allocation on hand-made timings: eq. 1 for memory-bound layers, the demand bandwidth for
// compute-bound ones, eq. 6 for the estimate, switch overheads and quantisation.
#include "power/dvfs/arada_policy.hpp"

#include <gtest/gtest.h>

#include "tests/test_paths.hpp"

namespace ergon {
namespace {

// ARADA's idealisation: voltage proportional to frequency all the way down (no minimum voltage).
AcceleratorConfig edge_tpu() {
  return load_accelerator_config(test::source_dir() + "/configs/edge_tpu.yaml", {"dvfs.compute.min_voltage_v=0"});
}

// 100 us layer: 10 us fill, 20 us stalls between passes, 70 us computing; the DRAM busy for 90 us, the
// busiest resource.
LayerTiming memory_bound() {
  return {"memory_bound", true, 100000, 30000, 10000, 0, 1e6, 90000, 5e6, ResourceKind::kMemory};
}

// 100 us layer without stalls between passes, moving 1 MB; the array the busiest resource.
LayerTiming compute_bound() {
  return {"compute_bound", true, 100000, 5000, 5000, 0, 1e6, 40000, 5e6, ResourceKind::kArray};
}

TEST(AradaPolicy, MemoryBoundLayerSlowsToFillItsStalls) {
  const AcceleratorConfig config = edge_tpu();
  const DvfsAllocation a = allocate_arada({memory_bound()}, config, DvfsScheme::kIdeal);
  const LayerAllocation& layer = a.layers.at(0);
  EXPECT_EQ(layer.bound, BoundDomain::kMemory);
  EXPECT_DOUBLE_EQ(layer.hideable_stall_ns, 20000);
  EXPECT_DOUBLE_EQ(layer.compute_ns, 70000);
  EXPECT_NEAR(layer.levels.frequency_mhz, 500.0 * 70 / 90, 1e-9);  // eq. 1
  EXPECT_NEAR(layer.levels.voltage_v, 0.8 * 70 / 90, 1e-12);       // V ~ f
  const double ratio = (70.0 / 90) * (70.0 / 90);                  // eq. 6 with V ~ f
  EXPECT_NEAR(layer.normalised_energy, ratio, 1e-12);
  EXPECT_NEAR(a.estimated_saving_pct, 100 * (1 - ratio), 1e-9);
  EXPECT_DOUBLE_EQ(layer.levels.dram_bandwidth_gbps, config.dram.bandwidth_gbps);
}

TEST(AradaPolicy, QuantisedLevelsRoundUp) {
  const DvfsAllocation a = allocate_arada({memory_bound()}, edge_tpu(), DvfsScheme::kWithOverheadQuantised);
  // With a 10 us switch overlapping the 10 us fill, eq. 1 gives 388.9 MHz, rounded up to 400.
  EXPECT_DOUBLE_EQ(a.layers.at(0).levels.frequency_mhz, 400);
  EXPECT_DOUBLE_EQ(a.layers.at(0).levels.voltage_v, 0.64);
}

TEST(AradaPolicy, ChangesThatDoNotPayForTheSwitchAreSkipped) {
  LayerTiming brief = memory_bound();
  brief.stall_ns = 3000;  // 3 us of hideable stall, no fill to hide a 10 us switch behind
  brief.fill_stall_ns = 0;
  const DvfsAllocation a = allocate_arada({brief, memory_bound()}, edge_tpu(), DvfsScheme::kWithOverhead);
  EXPECT_DOUBLE_EQ(a.layers.at(0).levels.frequency_mhz, 500);
  EXPECT_NE(a.layers.at(0).decision.find("does not pay"), std::string::npos);
  const DvfsAllocation ideal = allocate_arada({brief}, edge_tpu(), DvfsScheme::kIdeal);
  EXPECT_LT(ideal.layers.at(0).levels.frequency_mhz, 500);
}

// Two memory-bound layers in a row under vf-oh: the switch between them is charged once, to the first
// (which reserves it as its switch out), not again as the second's switch in.
TEST(AradaPolicy, EachSwitchIsChargedToOneLayer) {
  LayerTiming first = memory_bound();
  first.fill_stall_ns = 0;  // nothing hides a switch: 60 us computing, 40 us hideable stall
  first.stall_ns = 40000;
  first.time_ns = 100000;
  LayerTiming second = first;
  second.name = "second";
  const DvfsAllocation a = allocate_arada({first, second}, edge_tpu(), DvfsScheme::kWithOverhead);
  // First: 60 us of work in 100 us less its switch in (10 us) and out (10 us): 500 x 60 / 80.
  EXPECT_NEAR(a.layers.at(0).levels.frequency_mhz, 375, 1e-9);
  // Second: its switch in is the first's switch out; it has no next layer: 500 x 60 / 100.
  EXPECT_NEAR(a.layers.at(1).levels.frequency_mhz, 300, 1e-9);
}

TEST(AradaPolicy, ComputeBoundLayerGetsItsDemandBandwidth) {
  const AcceleratorConfig config = edge_tpu();
  const DvfsAllocation a = allocate_arada({compute_bound()}, config, DvfsScheme::kIdeal);
  const LayerAllocation& layer = a.layers.at(0);
  EXPECT_EQ(layer.bound, BoundDomain::kCompute);
  EXPECT_DOUBLE_EQ(layer.levels.frequency_mhz, 500);
  // The demand, 1 MB over the 95 us after the fill (10.5 GB/s), rounded up to the DRAM's next data rate:
  // LPDDR4-1600 (12.8 GB/s).
  EXPECT_DOUBLE_EQ(layer.levels.dram_bandwidth_gbps, config.dram.bandwidth_gbps * 1600 / 3200);
  EXPECT_DOUBLE_EQ(layer.normalised_energy, 1.0);  // eq. 6 counts the compute domain only
  EXPECT_DOUBLE_EQ(a.bandwidth_reduction_pct, 50);
}

// A layer that stalls between passes but is bound by a GLB port is compute-bound: the port runs on the
// compute clock, so a slower clock would slow it; its DRAM bandwidth is lowered instead. A layer bound by a
// DVFS switch keeps its levels.
TEST(AradaPolicy, TheBoundResourcesClockDomainDecides) {
  const AcceleratorConfig config = edge_tpu();
  LayerTiming port_bound = memory_bound();
  port_bound.bound = ResourceKind::kBufferPort;
  LayerTiming switch_bound = memory_bound();
  switch_bound.bound = ResourceKind::kDvfsSwitch;
  const DvfsAllocation a = allocate_arada({port_bound, switch_bound}, config, DvfsScheme::kIdeal);
  EXPECT_EQ(a.layers.at(0).bound, BoundDomain::kCompute);
  EXPECT_DOUBLE_EQ(a.layers.at(0).levels.frequency_mhz, 500);
  EXPECT_EQ(a.layers.at(1).bound, BoundDomain::kNone);
  EXPECT_DOUBLE_EQ(a.layers.at(1).levels.frequency_mhz, 500);
  EXPECT_DOUBLE_EQ(a.layers.at(1).levels.dram_bandwidth_gbps, config.dram.bandwidth_gbps);
  EXPECT_EQ(bound_domain(ResourceKind::kFillDrain), BoundDomain::kMemory);
  EXPECT_EQ(bound_domain(ResourceKind::kNetworkBus), BoundDomain::kCompute);
}

TEST(AradaPolicy, RaceToIdleKeepsNominalLevels) {
  const AcceleratorConfig config = edge_tpu();
  const DvfsAllocation a = allocate_arada({memory_bound(), compute_bound()}, config, DvfsScheme::kRaceToIdle);
  for (const LayerAllocation& layer : a.layers) {
    EXPECT_DOUBLE_EQ(layer.levels.frequency_mhz, 500);
    EXPECT_DOUBLE_EQ(layer.levels.dram_bandwidth_gbps, config.dram.bandwidth_gbps);
  }
  EXPECT_DOUBLE_EQ(a.estimated_saving_pct, 0);
  EXPECT_THROW(parse_dvfs_scheme("turbo"), std::invalid_argument);
}

}  // namespace
}  // namespace ergon
