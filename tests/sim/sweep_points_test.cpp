// Sweep specifications: lists, ranges and geometric ranges; point order; shards.
#include "sim/sweep/sweep_points.hpp"

#include <gtest/gtest.h>

#include "common/input_error.hpp"

namespace ergon {
namespace {

using Values = std::vector<std::string>;

TEST(SweepPoints, ParsesListsRangesAndGeometricRanges) {
  EXPECT_EQ(parse_sweep_parameter("glb.size_kib=8,16,32").values, (Values{"8", "16", "32"}));
  EXPECT_EQ(parse_sweep_parameter("a=0.1:0.5:0.1").values, (Values{"0.1", "0.2", "0.3", "0.4", "0.5"}));
  EXPECT_EQ(parse_sweep_parameter("a=8:100:*2").values, (Values{"8", "16", "32", "64"}));
  EXPECT_EQ(parse_sweep_parameter("a=2:128:2").values.size(), 64u);
  EXPECT_EQ(parse_sweep_parameter("glb.size_kib=8").key, "glb.size_kib");
}

TEST(SweepPoints, RejectsMalformedSpecifications) {
  for (const char* bad : {"glb.size_kib", "=1,2", "a=1,,2", "a=x,", "a=1,1.0", "a=hbm2,hbm2", "a=5:1:1", "a=1:5:0",
                          "a=1:5:*1", "a=0:5:*2", "a=1:2", "a=1:inf:1"}) {
    EXPECT_THROW(parse_sweep_parameter(bad), InputError) << bad;
  }
}

TEST(SweepPoints, ListsOfNumbersAreNormalisedAndWordsKeptAsWritten) {
  EXPECT_EQ(parse_sweep_parameter("glb.size_kib=8,16.0,2e1").values, (Values{"8", "16", "20"}));
  // Any word makes the whole list words: each value is checked against the config before the sweep runs.
  EXPECT_EQ(parse_sweep_parameter("dram.preset=LPDDR4,ddr5-4800,hbm2").values, (Values{"LPDDR4", "ddr5-4800", "hbm2"}));
  EXPECT_EQ(parse_sweep_parameter("a=1,x").values, (Values{"1", "x"}));
}

TEST(SweepPoints, EnumeratesWorkloadsOutermostAndTheLastParameterFastest) {
  const SweepGrid grid({"w0", "w1"}, {parse_sweep_parameter("a=1,2,3"), parse_sweep_parameter("b=10,20")});
  ASSERT_EQ(grid.size(), 12u);
  const SweepPoint point = grid.point(7);  // w1, a=1, b=20
  EXPECT_EQ(point.workload, 1u);
  EXPECT_EQ(point.values, (Values{"1", "20"}));
  EXPECT_EQ(grid.overrides(point), (Values{"a=1", "b=20"}));
}

TEST(SweepPoints, ShardsPartitionThePoints) {
  const Shard shard = parse_shard("1/3");
  EXPECT_TRUE(shard.contains(4));
  EXPECT_FALSE(shard.contains(5));
  for (const char* bad : {"3/3", "1", "a/2", "1/0", "1/2x"}) EXPECT_THROW(parse_shard(bad), InputError) << bad;
}

std::string distinct_keys_error(const std::vector<std::string>& arguments, const std::vector<std::string>& overrides) {
  std::vector<SweepParameter> parameters;
  for (const std::string& argument : arguments) parameters.push_back(parse_sweep_parameter(argument));
  try {
    check_distinct_keys(parameters, overrides);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

TEST(SweepPoints, AKeyIsSweptOnceAndNeverAlsoFixed) {
  EXPECT_EQ(distinct_keys_error({"glb.size_kib=8,16", "glb.size_kib=32"}, {}),
            "--param glb.size_kib=32: glb.size_kib is already swept by --param glb.size_kib=8,16; a key is swept "
            "once: give all its values in one --param");
  EXPECT_EQ(distinct_keys_error({"glb.size_kib=8,16", "glb=1"}, {}),
            "--param glb=1: glb overlaps glb.size_kib, swept by --param glb.size_kib=8,16; a key is swept once: give "
            "all its values in one --param");
  EXPECT_EQ(distinct_keys_error({"glb.size_kib=8,16"}, {"glb.size_kib=64"}),
            "--param glb.size_kib=8,16: glb.size_kib is already fixed by --set glb.size_kib=64; a key is either "
            "swept or fixed: drop one of them");
  // Keys that only share a prefix, and keys in different sections, are distinct.
  EXPECT_EQ(distinct_keys_error({"glb.size_kib=8,16", "glb.size_kib_extra=1", "noc.size_kib=1"}, {"glb.banks=2"}), "");
}

}  // namespace
}  // namespace ergon
