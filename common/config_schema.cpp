#include "common/config_schema.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ergon {
namespace {

// Powers of two past 2^16 read better as such (2^20 rather than 1048576).
std::string int_bound(std::int64_t value) {
  if (value > (1 << 16) && (value & (value - 1)) == 0) {
    int power = 0;
    while ((std::int64_t{1} << power) < value) ++power;
    return fmt::format("2^{}", power);
  }
  return std::to_string(value);
}

std::string bound(double value) {
  if (value == std::floor(value) && std::fabs(value) < 9e18) return int_bound(static_cast<std::int64_t>(value));
  return fmt::format("{:g}", value);
}

}  // namespace

const char* config_key_type_name(ConfigKeyType type) {
  switch (type) {
    case ConfigKeyType::kText: return "text";
    case ConfigKeyType::kInteger: return "integer";
    case ConfigKeyType::kNumber: return "number";
    case ConfigKeyType::kBoolean: return "boolean";
    case ConfigKeyType::kChoice: return "choice";
    case ConfigKeyType::kList: return "list";
    case ConfigKeyType::kMapping: return "mapping";
  }
  return "text";
}

std::string range_text(IntRule rule) {
  const bool no_max = rule.max == std::numeric_limits<std::int64_t>::max();
  if (rule.min == std::numeric_limits<std::int64_t>::min() && no_max) return "";
  if (no_max) return ">= " + int_bound(rule.min);
  return "[" + int_bound(rule.min) + ", " + int_bound(rule.max) + "]";
}

std::string range_text(NumberRule rule) {
  const bool no_min = std::isinf(rule.min), no_max = std::isinf(rule.max);
  if (no_min && no_max) return "";
  if (no_max) return (rule.min_exclusive ? "> " : ">= ") + bound(rule.min);
  return (rule.min_exclusive ? "(" : "[") + bound(rule.min) + ", " + bound(rule.max) + "]";
}

std::string key_leaf(const std::string& path) {
  const std::size_t dot = path.rfind('.');
  return dot == std::string::npos ? path : path.substr(dot + 1);
}

std::string read_choice(const YamlView& value, const std::string& key, const std::vector<std::string>& choices) {
  const std::string text = value.as_string();
  for (const std::string& choice : choices) {
    if (ascii_lower(choice) == ascii_lower(text)) return choice;
  }
  const std::string suggestion = closest_match(text, choices);
  value.fail("unknown " + key + " '" + text + "'; " +
             (suggestion.empty() ? "known: " + join_alternatives(choices) : "did you mean '" + suggestion + "'?"));
}

nlohmann::ordered_json config_keys_json(const std::vector<ConfigKeyInfo>& keys) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const ConfigKeyInfo& key : keys) {
    list.push_back({{"key", key.path},
                    {"type", config_key_type_name(key.type)},
                    {"default", key.default_text},
                    {"unit", key.unit},
                    {"range", key.range},
                    {"choices", key.choices},
                    {"applies_when", key.applies_when},
                    {"help", key.help}});
  }
  return list;
}

std::string config_keys_table(const std::vector<ConfigKeyInfo>& keys) {
  std::size_t width = 3;
  for (const ConfigKeyInfo& key : keys) width = std::max(width, key.path.size());
  std::string table = fmt::format("{:<{}}  {:<8} {:<14} {:<6} {:<22} {:<28} {}\n", "key", width, "type", "default",
                                  "unit", "range or choices", "applies when", "help");
  for (const ConfigKeyInfo& key : keys) {
    std::string choices;
    for (const std::string& choice : key.choices) choices += (choices.empty() ? "" : "|") + choice;
    table += fmt::format("{:<{}}  {:<8} {:<14} {:<6} {:<22} {:<28} {}\n", key.path, width,
                         config_key_type_name(key.type), key.default_text, key.unit.empty() ? "-" : key.unit,
                         key.choices.empty() ? (key.range.empty() ? "-" : key.range) : choices,
                         key.applies_when.empty() ? "always" : key.applies_when, key.help);
  }
  return table;
}

std::string config_keys_markdown(const std::vector<ConfigKeyInfo>& keys) {
  const auto cell = [](std::string text) {  // a `|` would end the cell
    for (std::size_t at = text.find('|'); at != std::string::npos; at = text.find('|', at + 2))
      text.replace(at, 1, "\\|");
    return text.empty() ? std::string("-") : text;
  };
  std::string table =
      "| key | type | default | unit | range or choices | applies when | meaning |\n|---|---|---|---|---|---|---|\n";
  for (const ConfigKeyInfo& key : keys) {
    std::string choices;
    for (const std::string& choice : key.choices) choices += (choices.empty() ? "`" : ", `") + choice + "`";
    table += fmt::format("| `{}` | {} | {} | {} | {} | {} | {} |\n", key.path, config_key_type_name(key.type),
                         cell(key.default_text), cell(key.unit), cell(choices.empty() ? key.range : choices),
                         key.applies_when.empty() ? "always" : "`" + key.applies_when + "`", cell(key.help));
  }
  return table;
}

bool shows_key(const ConfigKeyInfo& key, const std::string& row) {
  const auto segments = [](const std::string& path) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t dot = path.find('.'); dot != std::string::npos; dot = path.find('.', start)) {
      parts.push_back(path.substr(start, dot - start));
      start = dot + 1;
    }
    parts.push_back(path.substr(start));
    return parts;
  };
  const std::vector<std::string> wanted = segments(key.path), got = segments(row);
  const bool nested = key.type == ConfigKeyType::kList || key.type == ConfigKeyType::kMapping;
  if (got.size() < wanted.size() || (!nested && got.size() != wanted.size())) return false;
  for (std::size_t i = 0; i < wanted.size(); ++i) {
    if (wanted[i] != "<name>" && wanted[i] != got[i]) return false;
  }
  return true;
}

}  // namespace ergon
