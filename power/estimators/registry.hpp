#pragma once
// Every analytical estimator, in the order reports list them. Adding one: its plug-in file and one line in
// registry.cpp (docs/architecture.md, "Estimators").
#include <memory>
#include <string>
#include <vector>

#include "power/estimators/estimator.hpp"

namespace ergon {

const std::vector<std::unique_ptr<IEstimator>>& estimators();
// nullptr for an unknown name.
const IEstimator* find_estimator(const std::string& name);
std::vector<std::string> estimator_names();

}  // namespace ergon
