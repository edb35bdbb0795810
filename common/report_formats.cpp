#include "common/report_formats.hpp"

#include <fmt/format.h>

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

std::string markdown_cell(const std::string& field) {
  if (!is_integer_text(field)) {
    if (const auto number = parse_finite_number(field)) return fmt::format("{:.6g}", *number);
  }
  return escaped(field);
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

}  // namespace ergon
