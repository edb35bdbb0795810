#include "sim/sweep/sweep_results.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>

#include "common/input_error.hpp"
#include "common/streaming_file.hpp"
#include "network/layer.hpp"

namespace ergon {
namespace {

// Splits `text` (one or more physical lines, without the last line end) into fields. Returns false when
// a quoted field is still open at its end: the record goes on on the next line.
bool split_record(const std::string& text, std::vector<std::string>& fields, const std::string& path, int line) {
  fields.assign(1, {});
  bool quoted = false, closed = false;  // closed: a quoted field just ended
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
        closed = true;
      } else {
        fields.back() += c;
      }
    } else if (c == ',') {
      fields.emplace_back();
      closed = false;
    } else if (closed && c != '\r') {
      throw InputError({path, line, 0, {}}, "",
                       "text after a closing quote; was the file edited? Rerun the sweep in a new folder");
    } else if (c == '"' && fields.back().empty()) {
      quoted = true;
    } else if (c != '\r' || i + 1 != text.size()) {
      fields.back() += c;
    }
  }
  return !quoted;
}

// A whole number in a cell; an empty cell (a counter the point did not register) counts 0.
bool read_count(const std::string& cell, std::uint64_t& value) {
  value = 0;
  if (cell.empty()) return true;
  const auto [end, error] = std::from_chars(cell.data(), cell.data() + cell.size(), value);
  return error == std::errc() && end == cell.data() + cell.size();
}

// Checks a point's rows as they are read: each summed column of its total row must equal the sum over its
// layer rows.
class PointCheck {
 public:
  PointCheck(const std::vector<std::string>& header, const ResultsFormat& format, const std::string& path)
      : names_(format.summed_columns) {
    for (const std::string& name : names_) columns_.push_back(column_named(header, name, path));
  }
  void restart() {
    sums_.assign(columns_.size(), 0);
    bad_cell_ = false;
  }
  // A layer row: adds its cells. A cell that is not a whole number makes the point inconsistent.
  void add(const CsvRow& row) {
    for (std::size_t i = 0; i < columns_.size(); ++i) {
      std::uint64_t value = 0;
      if (!read_count(cell(row, i), value)) bad_cell_ = true;
      sums_[i] += value;
    }
  }
  // The total row: empty when it is the sum of the layer rows; otherwise why not.
  std::string mismatch(const CsvRow& total) const {
    if (bad_cell_) return "a layer row holds a count that is not a whole number";
    for (std::size_t i = 0; i < columns_.size(); ++i) {
      std::uint64_t value = 0;
      if (!read_count(cell(total, i), value)) return "its total " + names_[i] + " is not a whole number";
      if (value != sums_[i]) {
        return fmt::format("its total {} ({}) is not the sum of its layer rows ({}): a layer row is missing or edited",
                           names_[i], value, sums_[i]);
      }
    }
    return {};
  }

 private:
  const std::string& cell(const CsvRow& row, std::size_t i) const {
    static const std::string empty;
    return columns_[i] < row.fields.size() ? row.fields[columns_[i]] : empty;
  }
  std::vector<std::size_t> columns_;
  std::vector<std::string> names_;
  std::vector<std::uint64_t> sums_;
  bool bad_cell_ = false;
};

std::size_t point_index(const CsvRow& row, const std::string& path, std::size_t max_points) {
  const std::string& text = row.fields.front();
  std::size_t point = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), point);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || point >= max_points) {
    throw InputError({path, row.line, 1, {}}, "",
                     "a row without a valid point index (got '" + text.substr(0, 40) +
                         "'); was the file edited? Remove the row, or rerun the sweep in a new folder");
  }
  return point;
}

}  // namespace

bool CsvRowReader::next(CsvRow& row) {
  std::string text, line;
  row.offset = offset_;
  row.line = line_ + 1;
  std::uint64_t length = 0;
  for (int lines = 0;; ++lines) {
    if (!std::getline(in_, line)) return false;
    if (in_.eof()) return false;  // a last line without its line end was cut off
    length += line.size() + 1;
    if (lines > 0) text += '\n';
    text += line;
    if (split_record(text, row.fields, path_, row.line)) break;
  }
  line_ += static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
  offset_ += length;
  row.length = length;
  return true;
}

std::size_t column_named(const std::vector<std::string>& header, const std::string& name, const std::string& path) {
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return i;
  }
  throw InputError({path, 1, 1, {}}, "", "no column named '" + name + "'; is this a sweep's results.csv?");
}

std::map<std::size_t, PointRows> index_results(const std::string& path, const ResultsFormat& format) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError({path, 0, 0, {}}, "", "cannot read the file");
  std::string first_line;
  if (!std::getline(in, first_line) || first_line + "\n" != format.header) {
    throw InputError({path, 1, 1, {}}, "", "its columns differ from this sweep's; it belongs to a different sweep");
  }
  std::vector<std::string> header;
  split_record(first_line, header, path, 1);
  const std::size_t layer_column = column_named(header, "layer", path);
  PointCheck check(header, format, path);
  CsvRowReader reader(in, path, first_line.size() + 1, 1);
  CsvRow row;
  std::map<std::size_t, PointRows> points;
  int first_line_of_point = 0;
  std::size_t current = SIZE_MAX;
  std::uint64_t current_start = 0;
  bool after_total = false;
  while (reader.next(row)) {
    const std::size_t point = point_index(row, path, format.max_points);
    if (point != current || after_total) {  // a new point, or one restarted after an interruption
      current = point;
      current_start = row.offset;
      first_line_of_point = row.line;
      after_total = false;
      check.restart();
      points.erase(point);
    }
    if (layer_column >= row.fields.size() || row.fields[layer_column] != kTotalRowName) {
      check.add(row);
      continue;
    }
    after_total = true;
    if (const std::string why = check.mismatch(row); !why.empty()) {
      throw InputError({path, row.line, 1, {}}, "",
                       fmt::format("point {}: {}; remove the point's rows (lines {}-{}) and --resume to run it again, "
                                   "or rerun the sweep in a new folder",
                                   point, why, first_line_of_point, row.line));
    }
    points[point] = {current_start, row.offset + row.length - current_start};
  }
  return points;
}

void write_sorted_results(const std::string& path, const std::string& header,
                          const std::vector<std::pair<std::string, std::map<std::size_t, PointRows>>>& sources) {
  std::map<std::size_t, std::pair<std::size_t, PointRows>> order;  // point -> source, rows
  for (std::size_t s = 0; s < sources.size(); ++s) {
    for (const auto& [point, rows] : sources[s].second) {
      if (!order.emplace(point, std::make_pair(s, rows)).second) {
        throw std::runtime_error("point " + std::to_string(point) + " appears in both " +
                                 sources[order[point].first].first + " and " + sources[s].first);
      }
    }
  }
  std::vector<std::unique_ptr<std::ifstream>> inputs;
  for (const auto& source : sources) inputs.push_back(std::make_unique<std::ifstream>(source.first, std::ios::binary));
  StreamingFile out(path);
  out.write(header);
  std::string buffer;
  for (const auto& [point, where] : order) {
    std::ifstream& in = *inputs[where.first];
    buffer.resize(where.second.length);
    in.seekg(static_cast<std::streamoff>(where.second.offset));
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    if (!in)
      throw std::runtime_error("cannot read point " + std::to_string(point) + " from " + sources[where.first].first);
    out.write(buffer);
  }
  out.finish();
}

}  // namespace ergon
