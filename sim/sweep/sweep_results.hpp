#pragma once
// results.csv of a sweep: a header, then each finished point's rows (one per executed layer and one
// "total"), contiguous. While a sweep runs, points are appended as they finish; at the end the file is
// rewritten in point order, so the result does not depend on --jobs, on timing or on sharding.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ergon {

// The `column`-th field (0-based) of a CSV line; fields may be quoted, with "" for a quote.
std::string csv_field(const std::string& line, std::size_t column);

struct PointRows {
  std::uint64_t offset = 0;  // where the point's rows start in the file
  std::uint64_t length = 0;
};

// The complete points of a results file (those with their "total" row), by point index. Rows of an
// interrupted point, and a cut-off last line, are not included. An InputError if the header differs or a
// row's point index is not below `max_points`.
std::map<std::size_t, PointRows> index_results(const std::string& path, const std::string& expected_header,
                                               std::size_t layer_column, std::size_t max_points);

// Writes `header` and the indexed points of `sources` in ascending point order to `path`, atomically.
void write_sorted_results(const std::string& path, const std::string& header,
                          const std::vector<std::pair<std::string, std::map<std::size_t, PointRows>>>& sources);

}  // namespace ergon
