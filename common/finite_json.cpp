#include "common/finite_json.hpp"

#include <cmath>

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

}  // namespace ergon
