// A command's --out folder: written whole on success, not at all on failure, never over an input.
#include "common/output_folder.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/atomic_file.hpp"
#include "common/finite_json.hpp"
#include "common/staged_commit.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {
namespace fs = std::filesystem;

std::string read(const fs::path& path) {
  std::ifstream stream(path);
  std::stringstream text;
  text << stream.rdbuf();
  return text.str();
}

std::size_t entries_in(const fs::path& folder) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(folder), fs::directory_iterator()));
}

class OutputFolderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  const fs::path root_ = test::unique_temp_path("ergon_output_folder_test");
};

TEST_F(OutputFolderTest, CommitMovesEveryStagedFileIntoANewFolder) {
  const fs::path target = root_ / "results" / "run1";
  {
    OutputFolder out(target.string(), "--out", {"report.json"}, {});
    write_file_atomically(out.staged("report.json"), "{}\n");
    write_file_atomically(out.staged("points/a.csv"), "x\n");
    EXPECT_FALSE(fs::exists(target)) << "nothing appears before commit";
    EXPECT_FALSE(fs::exists(root_ / "results")) << "no parent folder is made before commit";
    EXPECT_EQ(out.commit(), (std::vector<std::string>{"points/a.csv", "report.json"}));
  }
  EXPECT_EQ(read(target / "report.json"), "{}\n");
  EXPECT_EQ(read(target / "points/a.csv"), "x\n");
  EXPECT_EQ(entries_in(root_), 1u) << "the staging folder is gone";
}

TEST_F(OutputFolderTest, AFailedRunLeavesNothingAndKeepsEarlierFiles) {
  const fs::path target = root_ / "results";
  fs::create_directories(target);
  std::ofstream(target / "report.json") << "earlier\n";
  {
    OutputFolder out(target.string(), "--out", {"report.json"}, {});
    write_file_atomically(out.staged("report.json"), "half\n");
  }  // destroyed without commit, as when the command throws
  EXPECT_EQ(read(target / "report.json"), "earlier\n");
  EXPECT_EQ(entries_in(root_), 1u);
  { OutputFolder out((root_ / "new").string(), "--out", {}, {}); }
  EXPECT_FALSE(fs::exists(root_ / "new")) << "a failed run leaves no empty folder";
}

TEST_F(OutputFolderTest, RefusesToWriteOverAnInput) {
  const fs::path target = root_ / "results";
  fs::create_directories(target);
  std::ofstream(target / "layers.csv") << "my data\n";
  const std::string input = (target / "layers.csv").string();
  try {
    OutputFolder out(target.string(), "--out", {"report.json", "layers.csv"}, {"a.yaml", input});
    FAIL() << "a planned output over an input was accepted";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what())
                  .find("--out " + target.string() +
                        ": the output layers.csv would replace "
                        "the input " +
                        input),
              std::string::npos)
        << error.what();
  }
  // An output the command did not plan is caught at commit, before anything moves.
  OutputFolder out(target.string(), "--out", {"report.json"}, {input});
  write_file_atomically(out.staged("report.json"), "{}\n");
  write_file_atomically(out.staged("layers.csv"), "generated\n");
  EXPECT_THROW(out.commit(), std::runtime_error);
  EXPECT_EQ(read(input), "my data\n");
  EXPECT_FALSE(fs::exists(target / "report.json"));
  // An input found later (an energy table the config names) is checked too.
  OutputFolder later(target.string(), "--out", {"layers.csv"}, {});
  EXPECT_THROW(later.add_inputs({input}), std::runtime_error);
}

TEST_F(OutputFolderTest, NamesTheOptionForAnEmptyPathOrAFile) {
  EXPECT_THROW(
      {
        try {
          OutputFolder out("", "--out", {}, {});
        } catch (const std::runtime_error& error) {
          EXPECT_STREQ(error.what(), "--out is empty; give an output folder");
          throw;
        }
      },
      std::runtime_error);
  std::ofstream(root_ / "file.txt") << "x\n";
  const std::string file = (root_ / "file.txt").string();
  try {
    OutputFolder out(file, "--out", {}, {});
    FAIL() << "a file was accepted as an output folder";
  } catch (const std::runtime_error& error) {
    EXPECT_EQ(std::string(error.what()), "--out " + file + " is a file, not a folder; give an output folder");
  }
}

TEST_F(OutputFolderTest, ACommitThatCannotFinishRestoresEveryEarlierFile) {
  // A folder where report.json goes: the commit fails, and layers.csv (moved before it in name order if
  // nothing were checked first) must still hold the earlier run.
  const fs::path target = root_ / "results";
  fs::create_directories(target / "report.json");
  std::ofstream(target / "layers.csv") << "earlier\n";
  {
    OutputFolder out(target.string(), "--out", {"report.json", "layers.csv"}, {});
    write_file_atomically(out.staged("layers.csv"), "new\n");
    write_file_atomically(out.staged("report.json"), "{}\n");
    try {
      out.commit();
      ADD_FAILURE() << "the commit went through a folder";
    } catch (const std::runtime_error& error) {
      EXPECT_NE(std::string(error.what()).find("report.json is a folder"), std::string::npos) << error.what();
    }
  }
  EXPECT_EQ(read(target / "layers.csv"), "earlier\n");
  EXPECT_TRUE(fs::is_directory(target / "report.json"));
  EXPECT_EQ(entries_in(target), 2u) << "nothing set aside is left in the target";
  EXPECT_EQ(entries_in(root_), 1u) << "the staging folder is gone";
}

TEST_F(OutputFolderTest, AMoveThatFailsMidwayPutsTheReplacedFilesBack) {
  // Checks pass, then the second move fails (its staged file vanished): the first is undone.
  const fs::path target = root_ / "results";
  fs::create_directories(target);
  std::ofstream(target / "a.csv") << "earlier a\n";
  std::ofstream(target / "b.csv") << "earlier b\n";
  const fs::path staged = root_ / "staged";
  fs::create_directories(staged);
  std::ofstream(staged / "a.csv") << "new a\n";
  EXPECT_THROW(commit_staged_files({{(staged / "a.csv").string(), (target / "a.csv").string()},
                                    {(staged / "b.csv").string(), (target / "b.csv").string()}}),
               std::runtime_error);
  EXPECT_EQ(read(target / "a.csv"), "earlier a\n");
  EXPECT_EQ(read(target / "b.csv"), "earlier b\n");
  EXPECT_EQ(entries_in(target), 2u) << "nothing set aside is left in the target";
}

TEST_F(OutputFolderTest, ANonFiniteCsvValueIsNeverCommitted) {
  const fs::path target = root_ / "results";
  OutputFolder out(target.string(), "--out", {"map.csv"}, {});
  write_file_atomically(out.staged("map.csv"), "mbps,savings_pct,label\n1,2.5,\"nan\"\n2,-nan,x\n");
  EXPECT_EQ(out.first_non_finite(), (target / "map.csv").string() + " line 3, column savings_pct ('-nan')");
  EXPECT_THROW(out.commit(), std::runtime_error);
  EXPECT_FALSE(fs::exists(target));
}

TEST(FiniteCsv, FindsEverySpellingOfANonFiniteNumberButNotText) {
  EXPECT_EQ(first_non_finite_csv("a,b\n1,2\n"), std::nullopt);
  EXPECT_EQ(first_non_finite_csv("a,b\n\"inf\",nano\n"), std::nullopt) << "quoted text and words are not numbers";
  EXPECT_EQ(first_non_finite_csv("a,b\n1,INF\n"), "line 2, column b ('INF')");
  EXPECT_EQ(first_non_finite_csv("a,b\n-inf,1\n"), "line 2, column a ('-inf')");
  EXPECT_EQ(first_non_finite_csv("a,b\n1, nan\n"), "line 2, column b (' nan')");
  // A quoted field may hold a line break and commas (a layer's name): its record goes on on the next line.
  EXPECT_EQ(first_non_finite_csv("layer,b\n\"x\n,nan,\",1\n"), std::nullopt);
  EXPECT_EQ(first_non_finite_csv("layer,b\n\"x\ny\",nan\nz,1\n"), "line 2, column b ('nan')");
}

TEST_F(OutputFolderTest, AStagingFolderOfADeadProcessIsClearedAndALiveOnesKept) {
  char host[256] = {};
  ASSERT_EQ(::gethostname(host, sizeof host - 1), 0);
  const std::string mark = std::string(".staging.") + host + ".";
  const fs::path dead = root_ / (".old" + mark + "999999999");  // above any pid_max: no such process
  const fs::path live = root_ / (".other" + mark + std::to_string(::getppid()));
  // Another machine's (a folder shared over NFS): its pid says nothing about a process here.
  const fs::path elsewhere = root_ / ".shard.staging.another-machine.999999999";
  for (const fs::path& folder : {dead, live, elsewhere}) fs::create_directories(folder);
  std::ofstream(dead / "report.json") << "{}\n";
  { OutputFolder out((root_ / "results").string(), "--out", {"report.json"}, {}); }
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_TRUE(fs::exists(live));
  EXPECT_TRUE(fs::exists(elsewhere));
}

TEST(WriteErrors, AFullDiskNamesTheFileAndSaysSo) {
  // /dev/full fails every write with ENOSPC, as a full file system does.
  try {
    write_whole_file("/dev/full", "results/layers.csv", std::string(1 << 16, 'x'));
    ADD_FAILURE() << "writing to /dev/full succeeded";
  } catch (const std::runtime_error& error) {
    EXPECT_EQ(std::string(error.what()), "cannot write results/layers.csv: the disk is full (No space left on device)");
  }
}

}  // namespace
}  // namespace ergon
