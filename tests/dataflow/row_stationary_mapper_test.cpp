// The row-stationary schedule must cover every MAC exactly once, on random layers and random hardware,
// and every pass must respect the array, register-file and GLB capacities.
#include "dataflow/row_stationary/row_stationary_mapper.hpp"

#include <gtest/gtest.h>

#include <random>

namespace ergon {
namespace {

std::int64_t uniform(std::mt19937_64& random, std::int64_t low, std::int64_t high) {
  return std::uniform_int_distribution<std::int64_t>(low, high)(random);
}

LoopNest random_nest(std::mt19937_64& random) {
  LoopNest nest;
  nest.images = uniform(random, 1, 3);
  nest.groups = uniform(random, 1, 3);
  nest.filters = uniform(random, 1, 40);
  nest.channels = uniform(random, 1, 40);
  nest.ofmap_h = uniform(random, 1, 20);
  nest.ofmap_w = uniform(random, 1, 20);
  nest.filter_h = uniform(random, 1, 15);  // beyond 12 PE rows: folded
  nest.filter_w = uniform(random, 1, 14);  // beyond a 12-word ifmap RF: folded
  nest.stride_h = uniform(random, 1, 3);
  nest.stride_w = uniform(random, 1, 3);
  nest.dilation_h = uniform(random, 1, 2);
  nest.dilation_w = uniform(random, 1, 2);
  return nest;
}

ArrayResources random_resources(std::mt19937_64& random) {
  ArrayResources hw;
  hw.pe_rows = uniform(random, 1, 16);
  hw.pe_cols = uniform(random, 1, 16);
  hw.filter_rf_words = uniform(random, 1, 256);
  hw.ifmap_rf_words = uniform(random, 1, 16);
  hw.psum_rf_words = uniform(random, 1, 32);
  hw.glb_words = uniform(random, 64, 60000);
  return hw;
}

void expect_pass_within_capacity(const RowStationarySchedule& schedule, const ArrayResources& hw,
                                 const RowStationaryPass& pass) {
  const RowStationaryTiling& t = schedule.tiling();
  const std::int64_t filter_set_rows = (t.filter_sets + t.filter_set_columns - 1) / t.filter_set_columns;
  const std::int64_t group_set_rows = (t.group_sets + t.group_set_columns - 1) / t.group_set_columns;
  EXPECT_LE(pass.filter_rows.size() * t.channel_sets * filter_set_rows * group_set_rows, hw.pe_rows);
  EXPECT_LE(pass.ofmap_rows.size() * std::min(t.filter_sets, t.filter_set_columns) *
                std::min(t.group_sets, t.group_set_columns),
            hw.pe_cols);
  EXPECT_LE(pass.groups.size(), t.group_sets);
  EXPECT_LE(t.pe_rows_used(), hw.pe_rows);
  EXPECT_LE(t.pe_cols_used(), hw.pe_cols);
  EXPECT_LE(t.channels_per_pe * pass.filter_cols.size(), hw.ifmap_rf_words);
  EXPECT_LE(t.channels_per_pe * t.filters_per_pe * pass.filter_cols.size(), hw.filter_rf_words);
  EXPECT_LE(t.filters_per_pe, hw.psum_rf_words);
  EXPECT_LE(pass.channels.size(), t.channels_per_pass());
  EXPECT_LE(pass.filters.size(), t.filters_per_pass());
  EXPECT_LE(glb_tile_words(schedule.nest(), pass), hw.glb_words);
}

TEST(RowStationaryMapper, CoversEveryMacExactlyOnceOnRandomLayers) {
  std::mt19937_64 random(20261121);
  int mapped = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const LoopNest nest = random_nest(random);
    const ArrayResources hw = random_resources(random);
    std::optional<RowStationarySchedule> schedule;
    try {
      schedule = map_row_stationary(nest, hw);
    } catch (const MappingError&) {
      continue;  // a GLB too small for one row: reported, not mapped
    }
    ++mapped;
    // One counter per (group, image, filter, channel, ofmap row, filter row, filter column); every pass
    // computes all ofmap columns of its rows.
    const std::int64_t cells =
        nest.groups * nest.images * nest.filters * nest.channels * nest.ofmap_h * nest.filter_h * nest.filter_w;
    std::vector<std::uint8_t> visits(static_cast<std::size_t>(cells), 0);
    std::uint64_t operations = 0;
    std::uint64_t passes = 0;
    bool open_accumulation = false;
    schedule->for_each_pass([&](const RowStationaryPass& pass) {
      ++passes;
      operations += pass.operations(nest.ofmap_w);
      expect_pass_within_capacity(*schedule, hw, pass);
      if (pass.first_accumulation) open_accumulation = true;
      EXPECT_TRUE(open_accumulation) << "a pass accumulates into psums that were never started";
      if (pass.last_accumulation) open_accumulation = false;
      for (auto g = pass.groups.begin; g < pass.groups.end; ++g)
        for (auto n = pass.images.begin; n < pass.images.end; ++n)
          for (auto m = pass.filters.begin; m < pass.filters.end; ++m)
            for (auto c = pass.channels.begin; c < pass.channels.end; ++c)
              for (auto e = pass.ofmap_rows.begin; e < pass.ofmap_rows.end; ++e)
                for (auto r = pass.filter_rows.begin; r < pass.filter_rows.end; ++r)
                  for (auto s = pass.filter_cols.begin; s < pass.filter_cols.end; ++s) {
                    const auto index =
                        ((((((g * nest.images + n) * nest.filters + m) * nest.channels + c) * nest.ofmap_h + e) *
                              nest.filter_h +
                          r) *
                             nest.filter_w +
                         s);
                    ++visits[static_cast<std::size_t>(index)];
                  }
    });
    EXPECT_FALSE(open_accumulation);
    EXPECT_EQ(operations, nest.operations()) << "trial " << trial;
    EXPECT_EQ(passes, schedule->pass_count());
    EXPECT_TRUE(std::all_of(visits.begin(), visits.end(), [](std::uint8_t v) { return v == 1; }))
        << "trial " << trial << ": some MAC computed zero or several times";
  }
  EXPECT_GE(mapped, 300);
}

TEST(RowStationaryMapper, AlexNetConv1UsesOneSetPerPassOfElevenRows) {
  LoopNest conv1;  // 96 filters of 11x11x3, stride 4, 55x55 ofmap
  conv1.filters = 96;
  conv1.channels = 3;
  conv1.ofmap_h = conv1.ofmap_w = 55;
  conv1.filter_h = conv1.filter_w = 11;
  conv1.stride_h = conv1.stride_w = 4;
  const RowStationarySchedule schedule = map_row_stationary(conv1, ArrayResources{});
  const RowStationaryTiling& t = schedule.tiling();
  EXPECT_EQ(t.filter_rows, 11);
  EXPECT_EQ(t.ofmap_rows, 14);
  EXPECT_EQ(t.channels_per_pe, 1);  // 11 of the 12 ifmap RF words hold one channel's window
  EXPECT_EQ(t.channel_sets * t.filter_sets, 1);
  EXPECT_EQ(t.filters_per_pe, 20);  // floor(224 / 11)
}

TEST(RowStationaryMapper, ReportsAGlobalBufferTooSmallForOneRow) {
  LoopNest wide;
  wide.ofmap_w = 1000;
  EXPECT_THROW(map_row_stationary(wide, ArrayResources{12, 14, 224, 12, 24, 100}), MappingError);
}

}  // namespace
}  // namespace ergon
