#include "common/csv_record.hpp"

#include <algorithm>

#include "common/input_error.hpp"

namespace ergon {
namespace {

// A quoted field from `i` (at its opening quote); leaves `i` after the closing quote and any spaces.
std::string quoted_field(const std::string& line, std::size_t& i, const std::string& path, int line_number,
                         int column) {
  std::string text;
  for (++i;; ++i) {
    if (i >= line.size())
      throw InputError(SourceLocation{path, line_number, column, ""}, "", "unterminated quoted field");
    if (line[i] == '"' && (i + 1 >= line.size() || line[i + 1] != '"')) break;
    if (line[i] == '"') ++i;  // a doubled quote
    text += line[i];
  }
  for (++i; i < line.size() && line[i] == ' ';) ++i;
  if (i < line.size() && line[i] != ',') {
    throw InputError(SourceLocation{path, line_number, static_cast<int>(i) + 1, ""}, "", "text after a closing quote");
  }
  return text;
}

}  // namespace

std::vector<CsvField> split_csv_record(const std::string& line, const std::string& path, int line_number) {
  std::vector<CsvField> fields;
  std::size_t i = 0;
  while (true) {
    CsvField field;
    field.column = static_cast<int>(i) + 1;
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i < line.size() && line[i] == '"') {
      field.text = quoted_field(line, i, path, line_number, field.column);
    } else {
      const std::size_t end = line.find(',', i);
      field.text = line.substr(i, end == std::string::npos ? std::string::npos : end - i);
      while (!field.text.empty() && (field.text.back() == ' ' || field.text.back() == '\t')) field.text.pop_back();
      i = end == std::string::npos ? line.size() : end;
    }
    fields.push_back(field);
    if (i >= line.size()) return fields;
    ++i;  // the comma
  }
}

std::vector<std::string> csv_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    start = end + 1;
  }
  return lines;
}

bool is_blank_or_comment(const std::string& line) {
  const std::size_t start = line.find_first_not_of(" \t");
  return start == std::string::npos || line[start] == '#';
}

}  // namespace ergon
