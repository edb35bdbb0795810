// activity.csv's rows stay within their bound without changing what sums over them.
#include "sim/activity_rows.hpp"

#include <gtest/gtest.h>

namespace ergon {
namespace {

ActivityInterval interval(std::size_t layer, std::uint64_t start, std::uint64_t end, std::uint64_t pes, bool stall,
                          double mhz = 200) {
  ActivityInterval a;
  a.layer_index = layer;
  a.start_cycle = start;
  a.end_cycle = end;
  a.start_ps = start * 5000;
  a.end_ps = end * 5000;
  a.active_pes = pes;
  a.macs = stall ? 0 : pes * (end - start);
  a.dram_bytes = stall ? 64 : 0;
  a.stall = stall;
  a.frequency_mhz = mhz;
  a.voltage_v = 1.0;
  a.dram_bandwidth_gbps = 1.6;
  return a;
}

// Two layers of 1000 alternating compute and stall intervals, the second layer's half at a lower clock.
std::vector<ActivityInterval> timeline() {
  std::vector<ActivityInterval> intervals;
  std::uint64_t cycle = 0;
  for (std::size_t layer = 0; layer < 2; ++layer) {
    for (int i = 0; i < 1000; ++i) {
      const bool stall = i % 2 == 1;
      const double mhz = layer == 1 && i >= 500 ? 100 : 200;
      const std::uint64_t length = stall ? 3 : 7;
      intervals.push_back(interval(layer, cycle, cycle + length, stall ? 0 : 168, stall, mhz));
      cycle += length;
    }
  }
  return intervals;
}

struct Sums {
  std::uint64_t macs = 0, dram_bytes = 0, intervals = 0;
  double pe_cycles = 0, stall_cycles = 0;
};

Sums sums(const ActivityRows& rows) {
  Sums s;
  for (const ActivityRow& row : rows.rows()) {
    s.macs += row.interval.macs;
    s.dram_bytes += row.interval.dram_bytes;
    s.intervals += row.intervals;
    s.pe_cycles += row.mean_active_pes() * row.cycles();
    s.stall_cycles += row.stall_fraction() * row.cycles();
  }
  return s;
}

TEST(ActivityRows, KeepsEveryIntervalWithinTheBound) {
  ActivityRows rows(ActivityDetail::kIntervals, 5000);
  for (const auto& a : timeline()) rows.add(a);
  ASSERT_EQ(rows.rows().size(), 2000u);
  EXPECT_EQ(rows.rows()[1].stall_fraction(), 1.0);
  EXPECT_EQ(rows.rows()[0].mean_active_pes(), 168.0);
}

TEST(ActivityRows, MergesAdjacentIntervalsBeyondTheBoundAndKeepsTheSums) {
  ActivityRows all(ActivityDetail::kIntervals, 5000), bounded(ActivityDetail::kIntervals, 100);
  for (const auto& a : timeline()) {
    all.add(a);
    bounded.add(a);
  }
  EXPECT_LE(bounded.rows().size(), 100u);
  EXPECT_GT(bounded.rows().size(), 50u) << "coarsened no more than needed";
  const Sums exact = sums(all), merged = sums(bounded);
  EXPECT_EQ(merged.macs, exact.macs);
  EXPECT_EQ(merged.dram_bytes, exact.dram_bytes);
  EXPECT_EQ(merged.intervals, 2000u);
  EXPECT_DOUBLE_EQ(merged.pe_cycles, exact.pe_cycles);
  EXPECT_DOUBLE_EQ(merged.stall_cycles, exact.stall_cycles);
  // A compute and a stall interval merged: 7 of 10 cycles at 168 PEs, 3 of 10 stalled.
  const ActivityRow& first = bounded.rows().front();
  EXPECT_NEAR(first.stall_fraction(), 0.3, 1e-12);
  EXPECT_NEAR(first.mean_active_pes(), 0.7 * 168, 1e-9);
  for (const ActivityRow& row : bounded.rows()) {  // rows are contiguous and never span layers or levels
    EXPECT_EQ(row.cycles(), static_cast<double>(row.intervals / 2 * 10 + (row.intervals % 2) * 7))
        << "row from " << row.interval.start_cycle;
  }
}

TEST(ActivityRows, LayersDetailGivesARowPerLayerAndLevel) {
  ActivityRows rows(ActivityDetail::kLayers, 1);
  for (const auto& a : timeline()) rows.add(a);
  ASSERT_EQ(rows.rows().size(), 3u);  // layer 0; layer 1 at 200 MHz; layer 1 at 100 MHz
  EXPECT_EQ(rows.rows()[0].intervals, 1000u);
  EXPECT_EQ(rows.rows()[1].interval.frequency_mhz, 200.0);
  EXPECT_EQ(rows.rows()[2].interval.frequency_mhz, 100.0);
  EXPECT_EQ(rows.rows()[2].interval.layer_index, 1u);
}

TEST(ActivityRows, NamesTheDetailLevels) {
  EXPECT_EQ(parse_activity_detail("Layers"), ActivityDetail::kLayers);
  EXPECT_EQ(parse_activity_detail("none"), ActivityDetail::kNone);
  EXPECT_THROW(parse_activity_detail("all"), std::invalid_argument);
}

}  // namespace
}  // namespace ergon
