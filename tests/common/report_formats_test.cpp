// The forms of a command's result (--format) and the output budget of growing files.
#include "common/report_formats.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "common/input_error.hpp"
#include "common/output_budget.hpp"
#include "common/output_folder.hpp"
#include "common/streaming_file.hpp"
#include "common/text.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

TEST(ReportFormats, MarkdownIsTheCsvAsATableWithNonIntegersRounded) {
  const std::string csv = "layer,macs,energy_uj,note\n\"conv1\",105415200,1886.8043210987654,\"a|b, c\"\n";
  EXPECT_EQ(csv_as_markdown(csv),
            "| layer | macs | energy_uj | note |\n|---|---|---|---|\n| conv1 | 105415200 | 1886.8 | a\\|b, c |\n");
}

TEST(ReportFormats, EachFormatPicksItsForm) {
  const ReportForms forms{"T\n", "{}\n", "a\n1.5\n"};
  EXPECT_EQ(report_in_format(forms, "table"), "T\n");
  EXPECT_EQ(report_in_format(forms, "json"), "{}\n");
  EXPECT_EQ(report_in_format(forms, "csv"), "a\n1.5\n");
  EXPECT_EQ(report_in_format(forms, "markdown"), "| a |\n|---|\n| 1.5 |\n");
  ReportForms own = forms;
  own.markdown = "# own\n";
  EXPECT_EQ(report_in_format(own, "markdown"), "# own\n");
  EXPECT_THROW(report_in_format(forms, "yaml"), std::invalid_argument);
}

TEST(OutputBudget, StopsTakingOnceSpentAndNamesTheFirstFileOver) {
  OutputBudget budget(10);
  EXPECT_TRUE(budget.take(6, "a"));
  EXPECT_FALSE(budget.take(5, "b"));
  EXPECT_FALSE(budget.take(1, "c"));  // once spent, nothing more, even what would fit
  EXPECT_TRUE(budget.exceeded());
  EXPECT_EQ(budget.first_file_over(), "b");
}

TEST(OutputBudget, StreamingFileDropsWritesPastTheBudget) {
  const std::string path = test::unique_temp_path("budget.txt").string();
  OutputBudget budget(8);
  {
    StreamingFile file(path);
    file.set_budget(&budget);
    file.write("12345");
    file.write("6789");  // would make 9 bytes
    file.finish();
  }
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "12345");
  EXPECT_TRUE(budget.exceeded());
  std::remove(path.c_str());
}

TEST(OutputFolderOption, RefusesANewFolderNamedLikeAFile) {
  const std::string missing = test::unique_temp_path("estimate").string() + ".json";
  EXPECT_THROW(check_output_folder_option(missing, "--out"), UsageError);
  EXPECT_NO_THROW(check_output_folder_option(test::unique_temp_path("results").string(), "--out"));
  const std::string existing = test::unique_temp_path("kept").string() + ".csv";
  std::filesystem::create_directories(existing);  // a folder of that name that exists is the user's choice
  EXPECT_NO_THROW(check_output_folder_option(existing, "--out"));
  std::filesystem::remove(existing);
}

TEST(ParseFiniteNumber, ReadsValuesBelowTheSmallestNormalDoubleAndRefusesOverflow) {
  EXPECT_EQ(parse_finite_number("1e-320"), 1e-320) << "a subnormal value is finite";
  EXPECT_EQ(parse_finite_number("1e-400"), 0.0) << "below every double: it reads as 0, as YAML reads it";
  EXPECT_EQ(parse_finite_number("1e400"), std::nullopt);
  EXPECT_EQ(parse_finite_number("inf"), std::nullopt);
  EXPECT_EQ(parse_finite_number("nan"), std::nullopt);
  EXPECT_EQ(parse_finite_number("2x"), std::nullopt);
  EXPECT_EQ(parse_finite_number(""), std::nullopt);
  EXPECT_EQ(parse_finite_number(" 2.5"), 2.5);
}

}  // namespace
}  // namespace ergon
