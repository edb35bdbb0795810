// The row-stationary mapper on random layers and random hardware: the mapping it chooses covers every MAC
// exactly once, respects the array, register files, GLB and filter store, accumulates every psum tile from
// its first step to its last, honours pinned parameters, and reports a GLB too small for any tile.
#include "dataflows/row_stationary/row_stationary_mapper.hpp"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <random>
#include <set>
#include <vector>

#include "dataflows/row_stationary/row_stationary_schedule.hpp"
#include "tests/dataflows/row_stationary/mapper_context_fixture.hpp"

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
  nest.filter_h = uniform(random, 1, 15);  // beyond the PE rows: folded
  nest.filter_w = uniform(random, 1, 14);  // beyond a 12-word ifmap RF: folded
  nest.stride_h = uniform(random, 1, 3);
  nest.stride_w = uniform(random, 1, 3);
  nest.dilation_h = uniform(random, 1, 2);
  nest.dilation_w = uniform(random, 1, 2);
  nest.input_h = nest.ifmap_h();
  nest.input_w = nest.ifmap_w();
  return nest;
}

MapperContext random_context(std::mt19937_64& random) {
  MapperContext context = test::mapper_context();
  ArrayResources& hw = context.hw;
  hw.pe_rows = uniform(random, 1, 16);
  hw.pe_cols = uniform(random, 1, 16);
  hw.filter_rf_words = uniform(random, 1, 256);
  hw.ifmap_rf_words = uniform(random, 1, 16);
  hw.psum_rf_words = uniform(random, 1, 32);
  hw.glb_words = uniform(random, 64, 60000);
  hw.filter_store_words = uniform(random, 0, 1) == 0 ? 0 : uniform(random, 64, 8000);
  hw.filter_rf_double_buffered = uniform(random, 0, 3) == 0;
  context.objective = static_cast<MapperObjective>(uniform(random, 0, 2));
  return context;
}

// Objectives are lexicographic ([delay, energy] for latency): the objective's value, then on an exact tie the
// other figure.
TEST(RowStationaryMapper, ObjectivesBreakExactTiesByTheOtherFigure) {
  const MapperObjective latency = MapperObjective::kLatency, energy = MapperObjective::kEnergy,
                        edp = MapperObjective::kEnergyDelay;
  EXPECT_TRUE(ranks_before(latency, 5.0, 100.0, 9.0, 100.0));   // same cycles, less energy
  EXPECT_FALSE(ranks_before(latency, 9.0, 100.0, 5.0, 100.0));  // same cycles, more energy
  EXPECT_TRUE(ranks_before(latency, 9.0, 99.0, 5.0, 100.0));    // fewer cycles, whatever the energy
  EXPECT_FALSE(ranks_before(latency, 5.0, 100.0, 5.0, 100.0));  // equal on both: the earlier stays
  EXPECT_TRUE(ranks_before(energy, 5.0, 90.0, 5.0, 100.0));     // same energy, fewer cycles
  EXPECT_FALSE(ranks_before(energy, 6.0, 1.0, 5.0, 100.0));     // more energy, whatever the cycles
  EXPECT_TRUE(ranks_before(edp, 10.0, 10.0, 5.0, 20.0));        // same product, fewer cycles
  EXPECT_FALSE(ranks_before(edp, 5.0, 20.0, 10.0, 10.0));
  // A tie is exact equality: a cycle less by a millionth is no tie.
  EXPECT_TRUE(ranks_before(latency, 9.0, 100.0 - 1e-6, 5.0, 100.0));
}

TEST(RowStationaryMapper, ChosenMappingCoversEveryMacOnceWithinCapacity) {
  std::mt19937_64 random(20261121);
  int mapped = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const LoopNest nest = random_nest(random);
    const MapperContext context = random_context(random);
    std::optional<MappingChoice> choice;
    try {
      choice = map_row_stationary(nest, context);
    } catch (const MappingError&) {
      continue;  // a GLB or RF too small for any tile: reported, not mapped
    }
    ++mapped;
    const std::string where = "trial " + std::to_string(trial);
    EXPECT_EQ(mapping_violation(nest, context.hw, choice->mapping), "") << where;
    EXPECT_GE(choice->candidates, 1u);
    // The chosen one is among the closed form's best 8, which lie below the median when there are 16 or more.
    if (choice->candidates >= 16) {
      EXPECT_LE(choice->ranked_objective, choice->median_objective) << where;
    }
    EXPECT_LE(choice->ranked_objective, choice->worst_objective) << where;
    EXPECT_LE(choice->median_objective, choice->worst_objective);
    const RowStationarySchedule schedule(nest, choice->mapping);
    const std::int64_t cells =
        nest.groups * nest.images * nest.filters * nest.channels * nest.ofmap_h * nest.filter_h * nest.filter_w;
    std::vector<std::uint8_t> visits(static_cast<std::size_t>(cells), 0);
    std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t>, bool> open;  // psum tile: started
    std::uint64_t operations = 0, steps = 0;
    schedule.for_each_step([&](const RowStationaryStep& step) {
      ++steps;
      operations += step.operations(nest.ofmap_w);
      const auto tile =
          std::make_tuple(step.blocks.group, step.blocks.image, step.blocks.filter, step.blocks.ofmap_row);
      if (step.first_accumulation) {
        EXPECT_FALSE(open[tile]) << where << ": psums started twice";
        open[tile] = true;
      }
      EXPECT_TRUE(open[tile]) << where << ": a pass accumulates into psums that were never started";
      if (step.last_accumulation) open[tile] = false;
      for (auto g = step.groups.begin; g < step.groups.end; ++g)
        for (auto n = step.images.begin; n < step.images.end; ++n)
          for (auto m = step.filters.begin; m < step.filters.end; ++m)
            for (auto c = step.channels.begin; c < step.channels.end; ++c)
              for (auto e = step.ofmap_rows.begin; e < step.ofmap_rows.end; ++e)
                for (auto r = step.filter_rows.begin; r < step.filter_rows.end; ++r)
                  for (auto s = step.filter_cols.begin; s < step.filter_cols.end; ++s) {
                    const auto index =
                        ((((((g * nest.images + n) * nest.filters + m) * nest.channels + c) * nest.ofmap_h + e) *
                              nest.filter_h +
                          r) *
                             nest.filter_w +
                         s);
                    ++visits[static_cast<std::size_t>(index)];
                  }
    });
    for (const auto& [tile, started] : open) EXPECT_FALSE(started) << where << ": psums never completed";
    EXPECT_EQ(operations, nest.operations()) << where;
    EXPECT_EQ(steps, schedule.step_count()) << where;
    EXPECT_TRUE(std::all_of(visits.begin(), visits.end(), [](std::uint8_t v) { return v == 1; }))
        << where << ": some MAC computed zero or several times";
  }
  EXPECT_GE(mapped, 200);
}

TEST(RowStationaryMapper, HonoursPinnedParameters) {
  LoopNest conv;  // 3x3, 64 -> 128 channels, 28x28
  conv.filters = 128;
  conv.channels = 64;
  conv.ofmap_h = conv.ofmap_w = 28;
  conv.filter_h = conv.filter_w = 3;
  conv.pad_top = conv.pad_left = 1;
  conv.input_h = conv.input_w = 28;
  MappingConstraints pin;
  pin.ofmap_rows = 7;
  pin.order = LoopOrder{TemporalDim::kImages, TemporalDim::kOfmapRows, TemporalDim::kChannels, TemporalDim::kFilters};
  pin.double_buffered = false;
  const MappingChoice choice = map_row_stationary(conv, test::mapper_context(), pin);
  EXPECT_EQ(choice.mapping.tiling.ofmap_rows, 7);
  EXPECT_EQ(choice.mapping.order, *pin.order);
  EXPECT_FALSE(choice.mapping.double_buffered);
  pin.psum_spill = false;
  pin.psum_slots = 1;
  EXPECT_THROW(map_row_stationary(conv, test::mapper_context(), pin), MappingError) << "channels outside filters spill";
}

TEST(RowStationaryMapper, PruningNeverDropsTheTilesThatFitASmallBuffer) {
  LoopNest conv1;  // AlexNet CONV1: 96 filters of 11x11x3, stride 4, 55x55 ofmap
  conv1.filters = 96;
  conv1.channels = 3;
  conv1.ofmap_h = conv1.ofmap_w = 55;
  conv1.filter_h = conv1.filter_w = 11;
  conv1.stride_h = conv1.stride_w = 4;
  conv1.input_h = conv1.input_w = 227;
  MapperContext context = test::mapper_context();
  context.hw.glb_words = 4096;  // 8 KiB: only small filter-set counts fit beside an 11-row ifmap tile
  const MappingChoice choice = map_row_stationary(conv1, context);
  EXPECT_EQ(mapping_violation(conv1, context.hw, choice.mapping), "");
  MappingConstraints pin;
  pin.filter_sets = 1;  // below the sizes the search would keep
  EXPECT_EQ(map_row_stationary(conv1, test::mapper_context(), pin).mapping.tiling.filter_sets, 1);
}

// AlexNet CONV3: 384 filters of 3x3x256 over a 13x13 ifmap, padded by 1.
LoopNest alexnet_conv3(std::int64_t images) {
  LoopNest conv;
  conv.images = images;
  conv.filters = 384;
  conv.channels = 256;
  conv.ofmap_h = conv.ofmap_w = 13;
  conv.filter_h = conv.filter_w = 3;
  conv.pad_top = conv.pad_left = 1;
  conv.input_h = conv.input_w = 13;
  return conv;
}

TEST(RowStationaryMapper, MoreGlobalBufferNeverCostsMore) {
  const LoopNest conv = alexnet_conv3(4);
  MapperContext context = test::mapper_context();  // the same prices at every size: a larger GLB only adds mappings
  std::vector<double> objective, dram;
  for (const std::int64_t kib : {16, 32, 64, 128, 256, 512}) {
    context.hw.glb_words = kib * 512;
    const MappingChoice choice = map_row_stationary(conv, context);
    objective.push_back(choice.cost.objective);
    dram.push_back(static_cast<double>(choice.cost.dram_read_bytes + choice.cost.dram_write_bytes));
    if (objective.size() > 1) {
      EXPECT_LE(objective.back(), objective[objective.size() - 2]) << kib << " KiB";
    }
  }
  EXPECT_LT(dram.back(), 0.7 * dram.front()) << "spare capacity must buy reuse";
}

// Everything a search returns, to compare two searches exactly.
std::vector<double> choice_figures(const MappingChoice& c) {
  const RowStationaryTiling& t = c.mapping.tiling;
  std::vector<double> figures;
  for (const std::int64_t v : {t.filter_rows, t.filter_cols, t.ofmap_rows, t.channels_per_pe, t.filters_per_pe,
                               t.channel_sets, t.filter_sets, t.filter_set_columns, t.group_sets, t.group_set_columns,
                               t.images, c.mapping.slots.ifmap, c.mapping.slots.psum, c.mapping.slots.filter}) {
    figures.push_back(static_cast<double>(v));
  }
  for (const TemporalDim dim : c.mapping.order) figures.push_back(static_cast<double>(dim));
  for (const double v :
       {c.mapping.double_buffered ? 1.0 : 0.0, c.cost.cycles, c.cost.energy_pj, c.cost.objective,
        static_cast<double>(c.cost.dram_read_bytes), static_cast<double>(c.cost.dram_write_bytes),
        static_cast<double>(c.cost.glb_reads), static_cast<double>(c.cost.glb_writes),
        static_cast<double>(c.cost.filter_dram_words), static_cast<double>(c.cost.psum_spill_words),
        static_cast<double>(c.candidates), c.ranked_objective, c.worst_objective, c.median_objective}) {
    figures.push_back(v);
  }
  return figures;
}

// A sweep's points share one memo (row_stationary_search_memo.hpp): searched in any order, at GLB sizes and
// GLB prices that change from point to point, each point's choice equals that of a search without the memo,
// without losing a layer that fits at none of them.
TEST(RowStationaryMapper, AMemoOfEarlierSearchesNeverChangesTheChoice) {
  std::mt19937_64 random(20261127);
  int compared = 0;
  for (int layer = 0; layer < 12; ++layer) {
    const LoopNest nest = random_nest(random);
    MapperContext context = random_context(random);
    RowStationarySearchMemo memo;
    std::vector<std::int64_t> sizes;  // few, so points repeat sizes and fall within each other's ranges
    for (int size = 0; size < 6; ++size) sizes.push_back(uniform(random, 64, 60000));
    for (int point = 0; point < 20; ++point) {
      context.hw.glb_words = sizes[static_cast<std::size_t>(uniform(random, 0, 5))];
      if (uniform(random, 0, 1) == 1) context.hw.filter_store_words = uniform(random, 0, 8000);
      const double glb_scale = static_cast<double>(uniform(random, 50, 400)) / 100;  // the GLB's price with its size
      context.energies.action[Action::kGlbRead] = 6 * glb_scale;
      context.energies.action[Action::kGlbWrite] = 6 * glb_scale;
      std::optional<MappingChoice> fresh, memoised;
      try {
        fresh = map_row_stationary(nest, context);
      } catch (const MappingError&) {
      }
      try {
        memoised = map_row_stationary(nest, context, {}, &memo);
      } catch (const MappingError&) {
      }
      ASSERT_EQ(fresh.has_value(), memoised.has_value()) << "layer " << layer << " point " << point;
      if (!fresh) continue;
      EXPECT_EQ(choice_figures(*memoised), choice_figures(*fresh)) << "layer " << layer << " point " << point;
      ++compared;
    }
    EXPECT_EQ(memo.shape_count(), 1u) << "one layer shape on one array";
  }
  EXPECT_GT(compared, 100);
}

TEST(RowStationaryMapper, TheGlobalBufferSizeStillDecidesAMemoisedSearch) {
  const LoopNest conv = alexnet_conv3(1);
  MapperContext context = test::mapper_context();
  RowStationarySearchMemo memo;
  std::set<std::vector<double>> mappings;
  for (const std::int64_t kib : {512, 16, 128, 32, 256, 64, 16, 512}) {  // back and forth
    context.hw.glb_words = kib * 512;
    const std::vector<double> memoised = choice_figures(map_row_stationary(conv, context, {}, &memo));
    EXPECT_EQ(memoised, choice_figures(map_row_stationary(conv, context))) << kib << " KiB";
    mappings.insert(std::vector<double>(memoised.begin(), memoised.begin() + 19));
  }
  EXPECT_GE(mappings.size(), 3u) << "a larger GLB keeps more tiles: the chosen mapping must change with it";
}

// A pinned search keeps its own memo: a shared one would hand it figures of what the pins exclude.
TEST(RowStationaryMapper, PinnedSearchesDoNotUseTheSharedMemo) {
  LoopNest conv;
  conv.filters = 32;
  conv.channels = 16;
  conv.ofmap_h = conv.ofmap_w = 10;
  conv.filter_h = conv.filter_w = 3;
  conv.input_h = conv.input_w = 12;
  RowStationarySearchMemo memo;
  MappingConstraints pin;
  pin.double_buffered = false;
  const MappingChoice pinned = map_row_stationary(conv, test::mapper_context(), pin, &memo);
  EXPECT_FALSE(pinned.mapping.double_buffered);
  map_row_stationary(conv, test::mapper_context(), pin, &memo);
  EXPECT_EQ(memo.shape_count(), 0u);
  map_row_stationary(conv, test::mapper_context(), {}, &memo);
  EXPECT_EQ(memo.shape_count(), 0u) << "a shape's first search keeps nothing";
  map_row_stationary(conv, test::mapper_context(), {}, &memo);
  EXPECT_EQ(memo.shape_count(), 1u);
  EXPECT_EQ(choice_figures(map_row_stationary(conv, test::mapper_context(), pin, &memo)), choice_figures(pinned));
}

TEST(RowStationaryMapper, ReportsAGlobalBufferTooSmallForOneRow) {
  LoopNest wide;
  wide.ofmap_w = 1000;
  wide.input_w = 1000;
  MapperContext context = test::mapper_context();
  context.hw.glb_words = 100;
  try {
    map_row_stationary(wide, context);
    FAIL() << "expected a MappingError";
  } catch (const MappingError& error) {
    EXPECT_NE(std::string(error.what()).find("glb.size_kib"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace ergon
