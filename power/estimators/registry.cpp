#include "power/estimators/registry.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace ergon {

// Each estimator's plug-in file defines its factory.
std::unique_ptr<IEstimator> make_cnnergy_estimator();
std::unique_ptr<IEstimator> make_lahmer_estimator();
std::unique_ptr<IEstimator> make_blackthorn_estimator();
std::unique_ptr<IEstimator> make_roofline_estimator();

const std::vector<std::unique_ptr<IEstimator>>& estimators() {
  static const std::vector<std::unique_ptr<IEstimator>> all = [] {
    std::vector<std::unique_ptr<IEstimator>> list;
    list.push_back(make_cnnergy_estimator());
    list.push_back(make_lahmer_estimator());
    list.push_back(make_blackthorn_estimator());
    list.push_back(make_roofline_estimator());
    return list;
  }();
  return all;
}

const IEstimator* find_estimator(const std::string& name) {
  for (const auto& estimator : estimators()) {
    if (estimator->name() == name) return estimator.get();
  }
  return nullptr;
}

std::vector<std::string> estimator_names() {
  std::vector<std::string> names;
  for (const auto& estimator : estimators()) names.push_back(estimator->name());
  return names;
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
