#include "sim/sweep/sweep_results.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>

#include "common/input_error.hpp"
#include "common/streaming_file.hpp"

namespace ergon {

std::string csv_field(const std::string& line, std::size_t column) {
  std::string field;
  bool quoted = false;
  std::size_t current = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        if (current == column) field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else if (current == column) {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      if (current++ == column) return field;
    } else if (current == column) {
      field += c;
    }
  }
  return field;
}

std::map<std::size_t, PointRows> index_results(const std::string& path, const std::string& expected_header,
                                               std::size_t layer_column, std::size_t max_points) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError({path, 0, 0, {}}, "", "cannot read the file");
  std::string line;
  if (!std::getline(in, line) || line + "\n" != expected_header) {
    throw InputError({path, 1, 1, {}}, "", "its columns differ from this sweep's; it belongs to a different sweep");
  }
  int line_number = 1;
  std::map<std::size_t, PointRows> points;
  std::uint64_t offset = static_cast<std::uint64_t>(in.tellg());
  std::size_t current = SIZE_MAX;
  std::uint64_t current_start = offset;
  while (std::getline(in, line)) {
    ++line_number;
    if (in.eof()) break;  // a last line without its newline was cut off
    const std::uint64_t next = offset + line.size() + 1;
    const std::string index_text = line.substr(0, line.find(','));
    std::size_t point = SIZE_MAX;
    std::size_t used = 0;
    try {
      point = std::stoul(index_text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != index_text.size() || index_text[0] == '-' || point >= max_points) {
      throw InputError({path, line_number, 1, {}}, "",
                       "a row without a valid point index (got '" + index_text.substr(0, 40) +
                           "'); was the file edited? Remove the row, or rerun the sweep in a new folder");
    }
    if (point != current) {
      current = point;
      current_start = offset;
      points.erase(point);  // a point restarted after an interruption: its earlier rows were incomplete
    }
    if (csv_field(line, layer_column) == "total") points[point] = {current_start, next - current_start};
    offset = next;
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
