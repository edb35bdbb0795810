// A sweep's results.csv read back as CSV records (quoted names may hold commas, quotes and line breaks),
// and a point whose layer rows do not add up to its total refused.
#include "sim/sweep/sweep_results.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "common/input_error.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

const std::string kHeader = "point,workload,\"glb.size_kib\",layer,op,cycles,macs,total_pj\n";

std::string write_results(const std::string& name, const std::string& rows) {
  const std::string path = test::unique_temp_path(name).string();
  std::ofstream(path, std::ios::binary) << kHeader << rows;
  return path;
}

ResultsFormat format(std::size_t points = 10) {
  return {kHeader, {"cycles", "macs"}, points};
}

TEST(SweepResults, ReadsQuotedFieldsWithCommasQuotesAndLineBreaks) {
  const std::string text = "a,\"b, c\",\"say \"\"hi\"\"\"\n\"two\nlines\",x\nlast,cut";
  std::istringstream in(text);
  CsvRowReader reader(in, "t.csv");
  CsvRow row;
  ASSERT_TRUE(reader.next(row));
  EXPECT_EQ(row.fields, (std::vector<std::string>{"a", "b, c", "say \"hi\""}));
  EXPECT_EQ(row.offset, 0u);
  EXPECT_EQ(row.line, 1);
  ASSERT_TRUE(reader.next(row));
  EXPECT_EQ(row.fields, (std::vector<std::string>{"two\nlines", "x"}));
  EXPECT_EQ(row.line, 2);
  EXPECT_EQ(text.substr(row.offset, row.length), "\"two\nlines\",x\n");
  EXPECT_FALSE(reader.next(row)) << "a last record without its line end was cut off";
}

TEST(SweepResults, AQuoteLeftOpenAtTheEndIsACutOffRecord) {
  std::istringstream in("a,\"open\nstill open\n");
  CsvRowReader reader(in, "t.csv");
  CsvRow row;
  EXPECT_FALSE(reader.next(row));
}

TEST(SweepResults, TextAfterAClosingQuoteIsLocated) {
  std::istringstream in("a,b\nc,\"d\"e\n");
  CsvRowReader reader(in, "t.csv");
  CsvRow row;
  ASSERT_TRUE(reader.next(row));
  try {
    reader.next(row);
    FAIL() << "accepted text after a closing quote";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("t.csv:2"), std::string::npos) << error.what();
  }
}

TEST(SweepResults, IndexesPointsWhoseLayerNamesHoldLineBreaks) {
  const std::string rows =
      "0,\"w\",8,\"conv\n1\",conv,10,4,1\n0,\"w\",8,\"total\",,10,4,1\n"
      "1,\"w\",16,\"conv\n1\",conv,12,4,1\n1,\"w\",16,\"total\",,12,4,1\n";
  const std::string path = write_results("line_breaks.csv", rows);
  const auto points = index_results(path, format());
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points.at(0).offset, kHeader.size());
  EXPECT_EQ(points.at(1).offset + points.at(1).length, kHeader.size() + rows.size());
  std::remove(path.c_str());
}

TEST(SweepResults, DropsAnInterruptedPointAndACutOffRecord) {
  const std::string path = write_results("interrupted.csv",
                                         "0,\"w\",8,\"a\",conv,10,4,1\n0,\"w\",8,\"total\",,10,4,1\n"
                                         "1,\"w\",16,\"a\",conv,12,4,1\n"  // no total: interrupted
                                         "2,\"w\",32,\"a\",conv,12,4,1\n2,\"w\",32,\"tot");
  const auto points = index_results(path, format());
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(points.count(0), 1u);
  std::remove(path.c_str());
}

TEST(SweepResults, RefusesAPointMissingALayerRow) {
  // Point 1 has its total (two layers: 22 cycles) but only one of its layer rows.
  const std::string path = write_results("missing_layer.csv",
                                         "0,\"w\",8,\"a\",conv,10,4,1\n0,\"w\",8,\"b\",fc,12,2,1\n"
                                         "0,\"w\",8,\"total\",,22,6,2\n"
                                         "1,\"w\",16,\"a\",conv,10,4,1\n1,\"w\",16,\"total\",,22,6,2\n");
  try {
    index_results(path, format());
    FAIL() << "accepted a point missing a layer row";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(path + ":6:1: point 1: its total cycles (22) is not the sum of its layer rows (10)"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("lines 5-6"), std::string::npos) << message;
  }
  std::remove(path.c_str());
}

TEST(SweepResults, RefusesAHeaderWithoutASummedColumn) {
  const std::string path = write_results("no_column.csv", "");
  ResultsFormat without = format();
  without.summed_columns = {"cycles", "glb_reads"};
  EXPECT_THROW(index_results(path, without), InputError);
  std::remove(path.c_str());
}

TEST(SweepResults, FindsColumnsByName) {
  const std::vector<std::string> header = {"point", "workload", "glb.size_kib", "layer"};
  EXPECT_EQ(column_named(header, "layer", "r.csv"), 3u);
  EXPECT_THROW(column_named(header, "total_pj", "r.csv"), InputError);
}

}  // namespace
}  // namespace ergon
