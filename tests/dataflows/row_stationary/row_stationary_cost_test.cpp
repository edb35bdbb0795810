// The closed-form cost model against the steps the simulation executes: on random layers, hardware and
// mappings (every loop order, slot count and buffering), the counts it predicts must equal, exactly, the
// sums over the staged steps (the GLB deciding fetches from what it holds), and every MAC must be
// computed exactly once.
#include "dataflows/row_stationary/row_stationary_cost.hpp"

#include <gtest/gtest.h>

#include <random>

#include "dataflows/row_stationary/row_stationary_mapper.hpp"
#include "dataflows/row_stationary/row_stationary_staging.hpp"
#include "dataflows/row_stationary/step_traffic.hpp"
#include "tests/dataflows/row_stationary/mapper_context_fixture.hpp"

namespace ergon {
namespace {

std::int64_t uniform(std::mt19937_64& random, std::int64_t low, std::int64_t high) {
  return std::uniform_int_distribution<std::int64_t>(low, high)(random);
}

LoopNest random_nest(std::mt19937_64& random) {
  LoopNest nest;
  nest.kind = uniform(random, 0, 5) == 0 ? LoopNestKind::kMaxPool : LoopNestKind::kConv;
  nest.images = uniform(random, 1, 3);
  nest.groups = uniform(random, 1, 3);
  nest.filters = nest.kind == LoopNestKind::kConv ? uniform(random, 1, 30) : 1;
  nest.channels = nest.kind == LoopNestKind::kConv ? uniform(random, 1, 30) : 1;
  nest.ofmap_h = uniform(random, 1, 16);
  nest.ofmap_w = uniform(random, 1, 16);
  nest.filter_h = uniform(random, 1, 7);
  nest.filter_w = uniform(random, 1, 7);
  nest.stride_h = uniform(random, 1, 3);
  nest.stride_w = uniform(random, 1, 3);
  nest.dilation_h = uniform(random, 1, 2);
  nest.dilation_w = uniform(random, 1, 2);
  nest.pad_top = uniform(random, 0, 2);
  nest.pad_left = uniform(random, 0, 2);
  nest.input_h = std::max<std::int64_t>(1, nest.ifmap_h() - nest.pad_top - uniform(random, 0, 2));
  nest.input_w = std::max<std::int64_t>(1, nest.ifmap_w() - nest.pad_left - uniform(random, 0, 2));
  return nest;
}

ArrayResources random_hardware(std::mt19937_64& random) {
  ArrayResources hw;
  hw.pe_rows = uniform(random, 2, 14);
  hw.pe_cols = uniform(random, 2, 14);
  hw.filter_rf_words = uniform(random, 8, 128);
  hw.ifmap_rf_words = uniform(random, 8, 16);
  hw.psum_rf_words = uniform(random, 1, 24);
  hw.glb_words = uniform(random, 2000, 200000);
  hw.filter_store_words = uniform(random, 0, 1) == 0 ? 0 : uniform(random, 100, 20000);
  return hw;
}

// A random mapping of the layer that fits the hardware: random pinned parameters, the mapper completes them.
std::optional<RowStationaryMapping> random_mapping(std::mt19937_64& random, const LoopNest& nest,
                                                   const MapperContext& context) {
  MappingConstraints pin;
  pin.order = all_loop_orders()[static_cast<std::size_t>(uniform(random, 0, 23))];
  pin.double_buffered = uniform(random, 0, 1) == 1;
  if (uniform(random, 0, 1) == 1) pin.ofmap_rows = uniform(random, 1, nest.ofmap_h);
  if (uniform(random, 0, 1) == 1) pin.images = uniform(random, 1, nest.images);
  if (uniform(random, 0, 2) == 0) pin.psum_slots = uniform(random, *pin.double_buffered ? 2 : 1, 4);
  if (uniform(random, 0, 2) == 0) pin.ifmap_slots = uniform(random, *pin.double_buffered ? 2 : 1, 4);
  if (uniform(random, 0, 2) == 0) pin.filter_slots = uniform(random, 0, 3);
  try {
    return map_row_stationary(nest, context, pin).mapping;
  } catch (const MappingError&) {
    return std::nullopt;
  }
}

MappingCost simulate_counts(const LoopNest& nest, const RowStationaryMapping& mapping, const DramEncoding& encoding,
                            std::uint64_t& spill_reads) {
  spill_reads = 0;
  const RowStationarySchedule schedule(nest, mapping);
  GlbContents glb;
  RowStationaryStaging staging(schedule, glb, encoding.ifmap_density);
  MappingCost sum;
  schedule.for_each_step([&](const RowStationaryStep& step) {
    const StepTraffic t = staging.stage(step);
    ++sum.steps;
    sum.macs += t.macs;
    sum.valid_macs += t.valid_macs;
    sum.nonzero_macs += t.nonzero_macs;
    sum.rf += t.rf;
    sum.filter_bus_words += t.filter_bus_words;
    sum.ifmap_bus_words += t.ifmap_bus_words;
    sum.psum_bus_words += t.psum_bus_words;
    sum.pe_hop_words += t.pe_hop_words;
    sum.glb_reads += t.glb_reads;
    sum.glb_writes += t.glb_writes;
    sum.filter_dram_words += t.filter_dram_words;
    sum.ifmap_dram_words += t.ifmap_dram_words;
    sum.psum_spill_words += t.psum_spill_write_words;
    spill_reads += t.psum_spill_read_words;
    sum.ofmap_dram_words += t.ofmap_dram_words;
    const std::uint64_t stored = t.ifmap_dram_stored_words;
    sum.dram_read_bytes +=
        encoding.raw_bytes(t.filter_dram_words + t.psum_spill_read_words) +
        (stored > 0 ? encoding.ifmap_bytes(stored, DramEncoding::expected(stored, encoding.ifmap_density)) : 0);
    sum.dram_write_bytes += (t.ofmap_dram_words > 0 ? encoding.ofmap_bytes(t.ofmap_dram_words) : 0) +
                            encoding.raw_bytes(t.psum_spill_write_words);
    sum.compute_cycles += t.compute_cycles;
    sum.peak_active_pes = std::max(sum.peak_active_pes, t.active_pes);
  });
  return sum;
}

TEST(RowStationaryCostModel, CountsEqualTheStagedStepsOnRandomMappings) {
  std::mt19937_64 random(20261123);
  int checked = 0, spilling = 0, halo = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const LoopNest nest = random_nest(random);
    MapperContext context = test::mapper_context();
    context.hw = random_hardware(random);
    context.encoding.word_bits = uniform(random, 0, 1) == 0 ? 8 : 16;
    context.encoding.ifmap_raw = uniform(random, 0, 3) == 0;
    context.encoding.ifmap_density = uniform(random, 0, 1) == 0 ? 1.0 : 0.3;
    context.encoding.ofmap_density = 0.6;
    const std::optional<RowStationaryMapping> mapping = random_mapping(random, nest, context);
    if (!mapping) continue;
    ++checked;
    const TilingAnalysis analysis = analyse_tiling(nest, mapping->tiling, context.encoding);
    const MappingCost model = evaluate_mapping(nest, analysis, *mapping, context.encoding, context.timing,
                                               context.energies, MapperObjective::kEnergy);
    std::uint64_t spill_reads = 0;
    const MappingCost simulated = simulate_counts(nest, *mapping, context.encoding, spill_reads);
    const std::string where = "trial " + std::to_string(trial);
    EXPECT_EQ(model.steps, simulated.steps) << where;
    EXPECT_EQ(model.macs, simulated.macs) << where;
    EXPECT_EQ(model.macs, nest.operations()) << where;
    EXPECT_EQ(model.valid_macs, simulated.valid_macs) << where;
    EXPECT_EQ(model.nonzero_macs, simulated.nonzero_macs) << where;
    EXPECT_TRUE(model.rf == simulated.rf) << where;
    EXPECT_EQ(model.filter_bus_words, simulated.filter_bus_words) << where;
    EXPECT_EQ(model.ifmap_bus_words, simulated.ifmap_bus_words) << where;
    EXPECT_EQ(model.psum_bus_words, simulated.psum_bus_words) << where;
    EXPECT_EQ(model.pe_hop_words, simulated.pe_hop_words) << where;
    EXPECT_EQ(model.filter_dram_words, simulated.filter_dram_words) << where;
    EXPECT_EQ(model.ifmap_dram_words, simulated.ifmap_dram_words) << where;
    EXPECT_EQ(model.psum_spill_words, simulated.psum_spill_words) << where;
    EXPECT_EQ(model.psum_spill_words, spill_reads) << where << ": every spilled psum is read back";
    EXPECT_EQ(model.ofmap_dram_words, simulated.ofmap_dram_words) << where;
    EXPECT_EQ(model.glb_reads, simulated.glb_reads) << where;
    EXPECT_EQ(model.glb_writes, simulated.glb_writes) << where;
    EXPECT_EQ(model.dram_read_bytes, simulated.dram_read_bytes) << where;
    EXPECT_EQ(model.dram_write_bytes, simulated.dram_write_bytes) << where;
    EXPECT_EQ(model.compute_cycles, simulated.compute_cycles) << where;
    EXPECT_EQ(model.peak_active_pes, simulated.peak_active_pes) << where;
    spilling += model.psum_spill_words > 0 ? 1 : 0;
    halo += model.ifmap_halo_reuse && analysis.ifmap_sweep_halo_words < analysis.ifmap_sweep_words ? 1 : 0;
  }
  EXPECT_GE(checked, 300);
  EXPECT_GE(spilling, 10) << "the corpus must exercise psum spills";
  EXPECT_GE(halo, 10) << "the corpus must exercise ifmap halo reuse";
}

}  // namespace
}  // namespace ergon
