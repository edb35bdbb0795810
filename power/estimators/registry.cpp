#include "power/estimators/registry.hpp"

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

}  // namespace ergon
