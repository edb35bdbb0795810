// The counter registry: components register component.action counters bound to their own fields;
// snapshots and their differences give an interval's counts; values of different registries add by name.
#include "common/counter_registry.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace ergon {
namespace {

TEST(CounterRegistry, SnapshotsReadTheRegisteredFieldsAndDifferencesGiveAnInterval) {
  std::uint64_t reads = 0, writes = 0;
  CounterRegistry registry;
  registry.add({"glb.read", "words", "glb_reads", "words read"}, reads);
  registry.add({"glb.write", "words", "glb_writes", "words written"}, writes);
  ASSERT_EQ(registry.specs().size(), 2u);
  EXPECT_EQ(registry.specs()[0].component(), "glb");
  EXPECT_EQ(registry.specs()[1].action(), "write");

  reads = 5;
  const CounterValues before = registry.snapshot();
  reads = 12;
  writes = 3;
  const CounterValues interval = registry.snapshot() - before;
  EXPECT_EQ(interval.get("glb.read"), 7u);
  EXPECT_EQ(interval.get("glb.write"), 3u);
  EXPECT_EQ(before.get("glb.read"), 5u);  // a snapshot does not follow the fields afterwards
  EXPECT_TRUE(interval.has("glb.write"));
  EXPECT_FALSE(interval.has("dram.read"));
  EXPECT_EQ(interval.get("dram.read"), 0u);
}

TEST(CounterRegistry, RefusesMalformedAndRepeatedNames) {
  std::uint64_t value = 0;
  CounterRegistry registry;
  registry.add({"mac.compute", "MACs", "computed_macs", ""}, value);
  EXPECT_THROW(registry.add({"mac.compute", "MACs", "again", ""}, value), std::logic_error);
  EXPECT_THROW(registry.add({"compute", "MACs", "c", ""}, value), std::logic_error);
  EXPECT_THROW(registry.add({"Mac.compute", "MACs", "c", ""}, value), std::logic_error);
  EXPECT_THROW(registry.add({"mac.", "MACs", "c", ""}, value), std::logic_error);
}

TEST(CounterRegistry, ValuesOfDifferentRegistriesAddByName) {
  std::uint64_t a_read = 2, a_write = 4, b_read = 10, b_hit = 7;
  CounterRegistry a, b;
  a.add({"dram.read", "bytes", "dram_read_bytes", ""}, a_read);
  a.add({"dram.write", "bytes", "dram_write_bytes", ""}, a_write);
  b.add({"dram.read", "bytes", "dram_read_bytes", ""}, b_read);
  b.add({"dram.row_hit", "bursts", "dram_row_hits", "", false}, b_hit);

  CounterValues total;
  total += a.snapshot();
  total += a.snapshot();  // same registry: added index by index
  EXPECT_EQ(total.get("dram.read"), 4u);
  total += b.snapshot();  // another registry: by name, new counters appended
  EXPECT_EQ(total.get("dram.read"), 14u);
  EXPECT_EQ(total.get("dram.write"), 8u);
  EXPECT_EQ(total.get("dram.row_hit"), 7u);
  ASSERT_EQ(total.specs().size(), 3u);
  EXPECT_EQ(total.specs()[2].name, "dram.row_hit");
  EXPECT_FALSE(total.specs()[2].energy_action);
}

TEST(CounterRegistry, SetChangesOnlyARegisteredCounter) {
  std::uint64_t busy = 0;
  CounterRegistry registry;
  registry.add({"pe.busy_cycle", "PE-cycles", "pe_busy_cycles", "", false}, busy);
  CounterValues values = registry.snapshot();
  values.set("pe.busy_cycle", 40);
  EXPECT_EQ(values.get("pe.busy_cycle"), 40u);
  EXPECT_THROW(values.set("pe.idle_cycle", 1), std::out_of_range);
}

}  // namespace
}  // namespace ergon
