#include "power/estimators/registry.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "common/text.hpp"

namespace ergon {

std::vector<const IEstimator*> estimators() {
  std::vector<const IEstimator*> all;
  for (const auto& item : Registry<EstimatorPlugin>::instance().items()) all.push_back(item.entry.get());
  return all;
}

const IEstimator* find_estimator(const std::string& name) {
  const EstimatorPlugin* found = Registry<EstimatorPlugin>::instance().find(name);
  return found != nullptr ? found->get() : nullptr;
}

std::vector<std::string> estimator_names() {
  return Registry<EstimatorPlugin>::instance().names();
}

std::optional<std::string> matching_choice(const EstimatorOption& option, const std::string& value) {
  const std::string wanted = ascii_lower(value);
  for (const std::string& choice : option.choices) {
    if (ascii_lower(choice) == wanted) return choice;
  }
  return std::nullopt;
}

bool EstimatorSettings::has(const std::string& name) const {
  const auto found = values_.find(name);
  return found != values_.end() && !found->second.empty();
}

std::string EstimatorSettings::get(const std::string& name, const std::string& fallback) const {
  const auto found = values_.find(name);
  return found != values_.end() && !found->second.empty() ? found->second : fallback;
}

std::optional<std::int64_t> EstimatorSettings::integer(const EstimatorOption& option) const {
  if (!has(option.name)) return std::nullopt;
  const std::string text = get(option.name);
  const IntRule rule = option.integer.value_or(IntRule{});
  std::size_t used = 0;
  std::int64_t value = 0;
  try {
    value = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || value < rule.min || value > rule.max) {
    throw std::invalid_argument(
        fmt::format("--{} {}: give an integer from {} to {}", option.name, text, rule.min, rule.max));
  }
  return value;
}

}  // namespace ergon
