#include "common/finite_json.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <vector>

namespace ergon {
namespace {

std::optional<std::string> search(const nlohmann::json& value, const std::string& path) {
  if (value.is_number_float() && !std::isfinite(value.get<double>())) return path.empty() ? "(the value)" : path;
  if (value.is_object()) {
    for (const auto& [key, child] : value.items()) {
      if (auto found = search(child, path.empty() ? key : path + "." + key)) return found;
    }
  }
  if (value.is_array()) {
    for (std::size_t index = 0; index < value.size(); ++index) {
      if (auto found = search(value[index], path + "[" + std::to_string(index) + "]")) return found;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> first_non_finite(const nlohmann::json& report) {
  return search(report, "");
}

namespace {

bool spells_non_finite(std::string field) {
  for (char& c : field) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::size_t start = field.find_first_not_of(" \t");
  if (start == std::string::npos) return false;
  field = field.substr(start, field.find_last_not_of(" \t") - start + 1);
  if (!field.empty() && (field[0] == '-' || field[0] == '+')) field.erase(0, 1);
  return field == "nan" || field == "inf" || field == "infinity" || field.rfind("nan(", 0) == 0;
}

struct CsvText {
  std::string text;
  bool quoted = false;  // quoted fields are text, never numbers
};

// The records of a CSV text (RFC 4180 quoting: a quoted field may hold commas and line breaks), each with
// the physical line it starts on.
struct CsvTextRecord {
  std::vector<CsvText> fields{1};
  std::size_t line_number = 1;
};

std::vector<CsvTextRecord> split_records(const std::string& csv_text) {
  std::vector<CsvTextRecord> records(1);
  bool in_quotes = false;
  std::size_t line_number = 1;
  for (std::size_t i = 0; i < csv_text.size(); ++i) {
    const char c = csv_text[i];
    CsvTextRecord& record = records.back();
    if (c == '"') {
      in_quotes = !in_quotes;  // a doubled quote inside quotes toggles twice: only names lose it
      record.fields.back().quoted = true;
    } else if (c == ',' && !in_quotes) {
      record.fields.emplace_back();
    } else if (c == '\n') {
      ++line_number;
      if (in_quotes) {
        record.fields.back().text += c;
      } else if (i + 1 < csv_text.size()) {
        records.emplace_back().line_number = line_number;
      }
    } else if (c != '\r' || in_quotes) {
      record.fields.back().text += c;
    }
  }
  return records;
}

}  // namespace

std::optional<std::string> first_non_finite_csv(const std::string& csv_text) {
  const std::vector<CsvTextRecord> records = split_records(csv_text);
  for (std::size_t row = 0; row < records.size(); ++row) {
    const std::vector<CsvText>& fields = records[row].fields;
    for (std::size_t column = 0; column < fields.size(); ++column) {
      if (fields[column].quoted || !spells_non_finite(fields[column].text)) continue;
      const std::vector<CsvText>& header = records.front().fields;
      const std::string name = column < header.size() && row > 0 ? header[column].text : std::to_string(column + 1);
      return "line " + std::to_string(records[row].line_number) + ", column " + name + " ('" + fields[column].text +
             "')";
    }
  }
  return std::nullopt;
}

}  // namespace ergon
