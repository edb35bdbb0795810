#pragma once
// Every analytical estimator. Each registers itself from its plug-in file, so adding one is that file plus
// its line in power/CMakeLists.txt (docs/architecture.md, "Adding a part"):
//   ERGON_REGISTER(EstimatorPlugin, "name", std::make_shared<const MyEstimator>(), order)
// The name is the estimator's name(); `order` places it in `ergon estimate --help` and the comparison report
// (cnnergy 10, lahmer 20, blackthorn 30, roofline 40).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/registry.hpp"
#include "power/estimators/estimator.hpp"

namespace ergon {

using EstimatorPlugin = std::shared_ptr<const IEstimator>;

// In registration order (`order`, then name).
std::vector<const IEstimator*> estimators();
// Case-insensitive; nullptr for an unknown name.
const IEstimator* find_estimator(const std::string& name);
std::vector<std::string> estimator_names();

// The option's own spelling of `value` among its choices, matched case-insensitively: the one lookup of the
// command line and the Python package. nullopt when `value` is none of them.
std::optional<std::string> matching_choice(const EstimatorOption& option, const std::string& value);

}  // namespace ergon
