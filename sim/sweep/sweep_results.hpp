#pragma once
// results.csv of a sweep: a header, then each finished point's rows (one per executed layer and one
// "total"), contiguous. While a sweep runs, points are appended as they finish; at the end the file is
// rewritten in point order, so the result does not depend on --jobs, on timing or on sharding. A layer
// or workload name may hold a comma, a quote or a line break (it is quoted), so the file is read as CSV
// records, never line by line, and its columns by name, never by position.
#include <cstdint>
#include <istream>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ergon {

// One CSV record: its fields, unquoted, and where it lies in the file.
struct CsvRow {
  std::vector<std::string> fields;
  std::uint64_t offset = 0;  // of its first byte
  std::uint64_t length = 0;  // in bytes, with its line end
  int line = 0;              // the physical line it starts on, 1-based
};

// Reads the records of a CSV file (RFC 4180: quoted fields may hold commas, "" and line breaks).
class CsvRowReader {
 public:
  // `offset` and `line` say where the stream stands in the file (after a header read on its own, say).
  CsvRowReader(std::istream& in, std::string path, std::uint64_t offset = 0, int line = 0)
      : in_(in), path_(std::move(path)), offset_(offset), line_(line) {}
  // The next whole record; false at the end. A last record cut off before its line end is not returned.
  // Text after a closing quote is an InputError located at the file and line.
  bool next(CsvRow& row);

 private:
  std::istream& in_;
  std::string path_;
  std::uint64_t offset_;
  int line_;
};

// The index of the column named `name` in `header`; an InputError naming the file and the column if absent.
std::size_t column_named(const std::vector<std::string>& header, const std::string& name, const std::string& path);

// What a results.csv must look like: its header, and the columns in which a point's total row holds the
// sum of its layer rows (so a point that lost a layer row is found).
struct ResultsFormat {
  std::string header;  // the header line, with its line end
  std::vector<std::string> summed_columns;
  std::size_t max_points = 0;  // every point index is below it
};

struct PointRows {
  std::uint64_t offset = 0;  // where the point's rows start in the file
  std::uint64_t length = 0;
};

// The complete points of a results file (those with their "total" row), by point index. Rows of an
// interrupted point, and a cut-off last record, are not included. An InputError located at the file and
// line if the header differs, a record is malformed, a row's point index is not below `max_points`, or a
// total row is not the sum of its point's layer rows (a layer row was lost or edited: such a file was not
// written by a sweep, so it is refused rather than guessed at).
std::map<std::size_t, PointRows> index_results(const std::string& path, const ResultsFormat& format);

// Writes `header` and the indexed points of `sources` in ascending point order to `path`, atomically.
void write_sorted_results(const std::string& path, const std::string& header,
                          const std::vector<std::pair<std::string, std::map<std::size_t, PointRows>>>& sources);

}  // namespace ergon
