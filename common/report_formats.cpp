#include "common/report_formats.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "common/csv_record.hpp"
#include "common/text.hpp"

namespace ergon {
namespace {

bool is_integer_text(const std::string& text) {
  std::size_t start = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
  if (start == text.size()) return false;
  for (std::size_t i = start; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  return true;
}

std::string escaped(const std::string& field) {
  std::string cell;
  for (const char c : field) cell += c == '|' ? std::string("\\|") : std::string(1, c);
  return cell;
}

std::string rounded(const std::string& field, int significant_digits) {
  if (!is_integer_text(field)) {
    if (const auto number = parse_finite_number(field)) return fmt::format("{:.{}g}", *number, significant_digits);
  }
  return field;
}

std::string markdown_cell(const std::string& field) {
  return escaped(rounded(field, 6));
}

nlohmann::ordered_json json_cell(const std::string& cell, bool text) {
  if (cell.empty()) return nullptr;
  if (text) return cell;
  if (cell.find_first_not_of("0123456789") == std::string::npos && cell.size() < 19) return std::stoll(cell);
  if (const std::optional<double> number = parse_finite_number(cell)) return *number;
  return cell;
}

std::string markdown_row(const std::vector<CsvField>& fields) {
  std::string row = "|";
  for (const CsvField& field : fields) row += " " + markdown_cell(field.text) + " |";
  return row + "\n";
}

}  // namespace

const std::vector<std::string>& report_format_names() {
  static const std::vector<std::string> names = {"table", "json", "csv", "markdown"};
  return names;
}

std::string report_in_format(const ReportForms& forms, const std::string& format) {
  if (format == "table") return forms.table;
  if (format == "json") return forms.json;
  if (format == "csv") return forms.csv;
  if (format == "markdown") return forms.markdown.empty() ? csv_as_markdown(forms.csv) : forms.markdown;
  throw std::invalid_argument("unknown report format '" + format + "'");
}

std::string csv_as_markdown(const std::string& csv) {
  std::string markdown;
  int line_number = 0;
  for (const std::string& line : csv_lines(csv)) {
    ++line_number;
    if (line.empty()) continue;
    const std::vector<CsvField> fields = split_csv_record(line, "CSV", line_number);
    if (markdown.empty()) {  // the header, never rounded, then the alignment row
      std::string header = "|", rule = "|";
      for (const CsvField& field : fields) {
        header += " " + escaped(field.text) + " |";
        rule += "---|";
      }
      markdown = header + "\n" + rule + "\n";
      continue;
    }
    markdown += markdown_row(fields);
  }
  return markdown;
}

std::vector<std::vector<std::string>> csv_cells(const std::string& csv) {
  std::vector<std::vector<std::string>> rows;
  int line_number = 0;
  for (const std::string& line : csv_lines(csv)) {
    ++line_number;
    if (line.empty()) continue;
    std::vector<std::string> row;
    for (const CsvField& field : split_csv_record(line, "CSV", line_number)) row.push_back(field.text);
    rows.push_back(std::move(row));
  }
  return rows;
}

nlohmann::ordered_json rows_as_json(const std::vector<std::vector<std::string>>& cells,
                                    const std::set<std::string>& text_columns) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (std::size_t r = 1; r < cells.size(); ++r) {
    nlohmann::ordered_json row = nlohmann::ordered_json::object();
    for (std::size_t c = 0; c < cells[0].size(); ++c) {
      const std::string& column = cells[0][c];
      row[column] = json_cell(c < cells[r].size() ? cells[r][c] : "", text_columns.count(column) > 0);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string aligned_table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()));
    for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  std::string text;
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      const bool number = parse_finite_number(row[c]).has_value();
      line += (c == 0 ? "" : "  ") +
              (number ? fmt::format("{:>{}}", row[c], widths[c]) : fmt::format("{:<{}}", row[c], widths[c]));
    }
    text += line.substr(0, line.find_last_not_of(' ') + 1) + "\n";
  }
  return text;
}

std::string csv_as_table(const std::string& csv) {
  std::vector<std::vector<std::string>> rows = csv_cells(csv);
  for (std::size_t r = 1; r < rows.size(); ++r) {
    for (std::string& cell : rows[r]) cell = rounded(cell, 4);
  }
  return aligned_table(rows);
}

}  // namespace ergon
