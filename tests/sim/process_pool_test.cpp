// Worker processes: every task's result comes back once, in any order; workers are reused across tasks and
// replaced after a while; a failing task or a dying worker stops the pool with its index; one job runs the
// tasks in order in this process.
#include "sim/parallel/process_pool.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace ergon {
namespace {

TEST(ProcessPool, ReturnsEveryResultOnceFromWorkerProcesses) {
  std::map<std::size_t, std::string> results;
  run_in_processes(
      20, 3, [](std::size_t i) { return std::string(100000 + i, static_cast<char>('a' + i % 26)); },
      [&](std::size_t i, const std::string& result) { EXPECT_TRUE(results.emplace(i, result).second) << i; });
  ASSERT_EQ(results.size(), 20u);
  for (const auto& [i, result] : results) {
    EXPECT_EQ(result.size(), 100000 + i);  // larger than a pipe buffer
    EXPECT_EQ(result.front(), static_cast<char>('a' + i % 26));
  }
}

TEST(ProcessPool, WorkersRunManyTasksAndAreReplacedAfterAWhile) {
  const auto pid_of_worker = [](std::size_t) { return std::to_string(::getpid()); };
  for (const auto& [tasks, max_workers] : {std::pair<std::size_t, std::size_t>{40, 2}, {1200, 2 + 1200 / 256}}) {
    std::set<std::string> pids;
    std::size_t results = 0;
    run_in_processes(tasks, 2, pid_of_worker, [&](std::size_t, const std::string& pid) {
      pids.insert(pid);
      ++results;
    });
    EXPECT_EQ(results, tasks);
    EXPECT_EQ(pids.count(std::to_string(::getpid())), 0u) << "a task ran in the parent";
    EXPECT_LE(pids.size(), max_workers) << tasks << " tasks";
    if (tasks > 256) {
      EXPECT_GT(pids.size(), 2u) << "workers were never replaced";
    }
  }
}

TEST(ProcessPool, AWorkerThatDiesIsReportedWithItsTask) {
  const auto task = [](std::size_t i) -> std::string {
    if (i == 7) ::raise(SIGKILL);
    return "ok";
  };
  try {
    run_in_processes(12, 2, task, [](std::size_t, const std::string&) {});
    FAIL() << "no error";
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(), "point 7: its worker process died (signal 9)");
  }
}

TEST(ProcessPool, AFailingTaskIsReportedWithItsIndex) {
  const auto task = [](std::size_t i) -> std::string {
    if (i == 5) throw std::runtime_error("layer conv3 has no mapping");
    return "ok";
  };
  for (unsigned jobs : {1u, 2u}) {
    try {
      run_in_processes(8, jobs, task, [](std::size_t, const std::string&) {});
      FAIL() << "no error with " << jobs << " jobs";
    } catch (const std::runtime_error& error) {
      EXPECT_STREQ(error.what(), "point 5: layer conv3 has no mapping");
    }
  }
}

TEST(ProcessPool, OneJobRunsInOrderInThisProcess) {
  std::vector<std::size_t> order;
  int side_effect = 0;
  run_in_processes(
      4, 1,
      [&](std::size_t i) {
        ++side_effect;  // visible only when the task runs in this process
        return std::to_string(i);
      },
      [&](std::size_t i, const std::string&) { order.push_back(i); });
  EXPECT_EQ(order, (std::vector<std::size_t>{0, 1, 2, 3}));
  EXPECT_EQ(side_effect, 4);
}

}  // namespace
}  // namespace ergon
