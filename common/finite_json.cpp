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

// The fields of one record (RFC 4180 quoting).
std::vector<CsvText> split_fields(const std::string& line) {
  std::vector<CsvText> fields(1);
  bool in_quotes = false;
  for (const char c : line) {
    if (c == '"') {
      in_quotes = !in_quotes;  // a doubled quote inside quotes toggles twice: only names lose it
      fields.back().quoted = true;
    } else if (c == ',' && !in_quotes) {
      fields.emplace_back();
    } else {
      fields.back().text += c;
    }
  }
  return fields;
}

}  // namespace

std::optional<std::string> first_non_finite_csv(const std::string& csv_text) {
  std::vector<CsvText> header;
  std::size_t line_number = 0;
  for (std::size_t start = 0; start < csv_text.size(); ++line_number) {
    const std::size_t end = std::min(csv_text.find('\n', start), csv_text.size());
    const std::vector<CsvText> fields = split_fields(csv_text.substr(start, end - start));
    start = end + 1;
    if (line_number == 0) header = fields;
    for (std::size_t column = 0; column < fields.size(); ++column) {
      if (fields[column].quoted || !spells_non_finite(fields[column].text)) continue;
      const std::string name =
          column < header.size() && line_number > 0 ? header[column].text : std::to_string(column + 1);
      return "line " + std::to_string(line_number + 1) + ", column " + name + " ('" + fields[column].text + "')";
    }
  }
  return std::nullopt;
}

}  // namespace ergon
