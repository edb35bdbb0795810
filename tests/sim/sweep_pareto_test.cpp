// The Pareto front of a sweep's results.csv: per workload, ties kept, area an objective only where every point has
// one.
#include "sim/sweep/sweep_pareto.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "common/input_error.hpp"

namespace ergon {
namespace {

class SweepPareto : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = std::filesystem::temp_directory_path() /
              ("ergon_sweep_pareto_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::create_directories(folder_);
  }
  void TearDown() override { std::filesystem::remove_all(folder_); }

  std::string results(const std::string& text) {
    const std::string path = (folder_ / "results.csv").string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  std::vector<std::size_t> front_points(const std::string& path) {
    std::vector<std::size_t> points;
    for (const SweepParetoPoint& point : sweep_pareto_front(path).points) {
      if (point.on_front) points.push_back(point.index);
    }
    return points;
  }

  std::filesystem::path folder_;
};

constexpr const char* kHeader = "point,workload,k,layer,op,time_ns,total_pj\n";

TEST(SweepParetoDominance, NoWorseEverywhereAndBetterSomewhere) {
  EXPECT_TRUE(dominates({1, 2}, {1, 3}));
  EXPECT_FALSE(dominates({1, 2}, {1, 2}));  // equal: neither dominates
  EXPECT_FALSE(dominates({1, 3}, {2, 2}));
  EXPECT_TRUE(dominates({1, 2, 3}, {1, 2, 4}));
}

TEST_F(SweepPareto, KeepsThePointsNoOtherBeatsPerWorkloadAndTies) {
  const std::string path = results(std::string(kHeader) +
                                   "0,\"a\",1,\"conv\",conv,5,50\n"  // a layer row: not a point
                                   "0,\"a\",1,\"total\",,10,100\n"
                                   "1,\"a\",2,\"total\",,20,50\n"
                                   "2,\"a\",3,\"total\",,20,60\n"     // dominated by point 1
                                   "3,\"a\",4,\"total\",,10,100\n"    // ties point 0: both kept
                                   "4,\"a\",5,\"total\",,30,50\n"     // same energy as 1, slower: dominated
                                   "5,\"b\",1,\"total\",,100,1000\n"  // another workload: its own front
                                   "6,\"b\",2,\"total\",,90,2000\n");
  EXPECT_EQ(front_points(path), (std::vector<std::size_t>{0, 1, 3, 5, 6}));
  const SweepParetoFront front = sweep_pareto_front(path);
  EXPECT_EQ(front.objectives, (std::vector<std::string>{"time_ns", "total_pj"}));
  EXPECT_EQ(sweep_pareto_csv(front, path), std::string(kHeader) +
                                               "0,\"a\",1,\"total\",,10,100\n"
                                               "1,\"a\",2,\"total\",,20,50\n"
                                               "3,\"a\",4,\"total\",,10,100\n"
                                               "5,\"b\",1,\"total\",,100,1000\n"
                                               "6,\"b\",2,\"total\",,90,2000\n");
}

TEST_F(SweepPareto, AreaIsAThirdObjectiveWhenEveryPointHasOne) {
  const std::string rows =
      "0,\"a\",1,\"total\",,10,100,{}\n"
      "1,\"a\",2,\"total\",,20,50,{}\n"
      "2,\"a\",3,\"total\",,20,60,1\n";  // beaten on latency and energy, not on area
  const std::string header = "point,workload,k,layer,op,time_ns,total_pj,area_mm2\n";
  std::string with_area = rows, without_area = rows;
  for (const char* area : {"5", "5"}) with_area.replace(with_area.find("{}"), 2, area);
  for (int i = 0; i < 2; ++i) without_area.replace(without_area.find("{}"), 2, "");
  EXPECT_EQ(front_points(results(header + with_area)), (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_EQ(sweep_pareto_front(results(header + with_area)).objectives.size(), 3u);
  // A point without an area: area is left out, said why, and point 2 is dominated again.
  const SweepParetoFront front = sweep_pareto_front(results(header + without_area));
  EXPECT_EQ(front.objectives.size(), 2u);
  EXPECT_EQ(front.area_left_out, "area_mm2 is empty at point 0: area left out of the objectives");
  EXPECT_EQ(front_points(results(header + without_area)), (std::vector<std::size_t>{0, 1}));
}

TEST_F(SweepPareto, AnEditedValueIsNamed) {
  const std::string path = results(std::string(kHeader) + "0,\"a\",1,\"total\",,ten,100\n");
  try {
    sweep_pareto_front(path);
    FAIL() << "a value that is not a number was accepted";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("results.csv:2:"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("time_ns: 'ten' in a total row is not a number"), std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace ergon
