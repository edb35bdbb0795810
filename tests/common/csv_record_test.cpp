// The CSV record splitter both measurement readers share (common/csv_record).
#include "common/csv_record.hpp"

#include <gtest/gtest.h>

#include <string>

#include "common/input_error.hpp"

namespace ergon {
namespace {

std::string error_of(const std::string& line) {
  try {
    split_csv_record(line, "m.csv", 4);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

TEST(CsvRecord, SplitsQuotedAndPlainFieldsAndRemembersTheirColumns) {
  const auto fields = split_csv_record(R"(conv, "a, ""b""" ,,3.5)", "m.csv", 2);
  ASSERT_EQ(fields.size(), 4u);
  EXPECT_EQ(fields[0].text, "conv");
  EXPECT_EQ(fields[1].text, R"(a, "b")");
  EXPECT_EQ(fields[1].column, 6);
  EXPECT_EQ(fields[2].text, "");
  EXPECT_EQ(fields[3].text, "3.5");
  EXPECT_EQ(fields[3].column, 20);
  EXPECT_EQ(split_csv_record("a,", "m.csv", 1).size(), 2u);  // a trailing comma is an empty last field
}

TEST(CsvRecord, LocatesBrokenQuoting) {
  EXPECT_NE(error_of(R"(a,"open)").find("m.csv:4:3"), std::string::npos) << error_of(R"(a,"open)");
  EXPECT_NE(error_of(R"(a,"open)").find("unterminated quoted field"), std::string::npos);
  EXPECT_NE(error_of(R"("x" y,b)").find("text after a closing quote"), std::string::npos);
  EXPECT_EQ(error_of("plain,fields"), "");
}

TEST(CsvRecord, LinesAndComments) {
  EXPECT_EQ(csv_lines("a\r\nb\n\nc"), (std::vector<std::string>{"a", "b", "", "c"}));
  EXPECT_TRUE(is_blank_or_comment("  # note"));
  EXPECT_TRUE(is_blank_or_comment(" \t"));
  EXPECT_FALSE(is_blank_or_comment("conv,#"));
}

}  // namespace
}  // namespace ergon
