// Registry<Entry>, the one self-registration mechanism: names are unique and found case-insensitively, and
// entries are listed by their order, then name, whatever order they were added in.
#include "common/registry.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace ergon {
namespace {

struct TestEntry {
  int value = 0;
};

TEST(Registry, RefusesANameRegisteredTwiceInAnyCase) {
  struct Twice {};
  Registry<Twice>& registry = Registry<Twice>::instance();
  registry.add("dram", Twice{});
  EXPECT_THROW(registry.add("dram", Twice{}), std::logic_error);
  EXPECT_THROW(registry.add("DRAM", Twice{}), std::logic_error);
  EXPECT_EQ(registry.names(), std::vector<std::string>{"dram"});
}

TEST(Registry, FindsNamesCaseInsensitively) {
  Registry<TestEntry>& registry = Registry<TestEntry>::instance();
  registry.add("row_stationary", TestEntry{7});
  ASSERT_NE(registry.find("Row_Stationary"), nullptr);
  EXPECT_EQ(registry.find("ROW_STATIONARY")->value, 7);
  EXPECT_EQ(registry.find("row"), nullptr);
}

TEST(Registry, ListsByOrderThenName) {
  struct Ordered {};
  Registry<Ordered>& registry = Registry<Ordered>::instance();
  registry.add("late", Ordered{}, 20);
  registry.add("b", Ordered{}, 10);
  registry.add("first", Ordered{}, 5);
  registry.add("a", Ordered{}, 10);
  EXPECT_EQ(registry.names(), (std::vector<std::string>{"first", "a", "b", "late"}));
  EXPECT_EQ(registry.items()[0].order, 5);
}

}  // namespace
}  // namespace ergon
