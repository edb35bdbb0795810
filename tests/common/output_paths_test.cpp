// The check every command makes before writing: no output resolves to one of its inputs.
#include "common/output_paths.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/test_paths.hpp"

namespace ergon {
namespace {

TEST(OutputPaths, FindsAnOutputThatIsAnInputThroughLinksAndDots) {
  namespace fs = std::filesystem;
  const fs::path dir = test::unique_temp_path("ergon_output_paths_test");
  fs::remove_all(dir);
  fs::create_directories(dir / "sub");
  std::ofstream(dir / "input.csv") << "x\n";
  fs::create_symlink(dir / "input.csv", dir / "link.csv");
  const std::string input = (dir / "input.csv").string();

  const auto through_dots = find_output_over_input({(dir / "a.json").string(), (dir / "sub/../input.csv").string()},
                                                   {"", (dir / "other.csv").string(), input});
  ASSERT_TRUE(through_dots.has_value());
  EXPECT_EQ(through_dots->output, (dir / "sub/../input.csv").string());
  EXPECT_EQ(through_dots->input, input);
  EXPECT_TRUE(find_output_over_input({(dir / "link.csv").string()}, {input}).has_value());
  EXPECT_FALSE(find_output_over_input({(dir / "out.csv").string(), ""}, {input}).has_value());
  EXPECT_FALSE(find_output_over_input({input}, {}).has_value());
  fs::create_hard_link(dir / "input.csv", dir / "hard.csv");
  EXPECT_TRUE(find_output_over_input({(dir / "hard.csv").string()}, {input}).has_value());
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ergon
