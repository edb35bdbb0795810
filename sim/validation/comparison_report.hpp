#pragma once
// The one comparison report (docs/validation.md): for a workload, per layer and in total, energy and
// latency per image from every source that has them: the simulation of each config given, every estimator of
// the registry that applies (CNNergy, Lahmer et al.'s TX2 and Xavier NX, a Blackthorn-fitted estimate, the
// roofline bound of each config), and published measurements (reference/jetson/). Each source is computed on its own;
// none feeds another.
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "power/estimators/estimator.hpp"
#include "sim/simulation.hpp"  // Fidelity

namespace ergon {

struct SourceValues {
  std::string name;    // e.g. "sim eyeriss", "CNNergy", "Lahmer TX2", "measured Jetson TX2"
  std::string detail;  // what it is and its caveats
  std::vector<std::optional<double>> layer_energy_mj, layer_latency_ms;  // indexed like ComparisonReport::layers
  std::optional<double> energy_mj, latency_ms;                           // per image
  std::optional<double> edp_mj_ms() const;
};

struct ComparisonReport {
  std::string workload;
  std::vector<std::string> layers;  // layers any source has a value for
  std::vector<SourceValues> sources;
};

struct ComparisonRequest {
  std::string workload_path;
  std::vector<std::string> config_paths;  // simulated, and given to every estimator that models a chip
  std::vector<std::string> overrides;     // applied to every config
  std::map<std::string, EstimatorSettings> estimator_settings;  // by estimator name, e.g. blackthorn's models
  std::int64_t batch = 0;  // images per layer for the simulations and the estimates alike; 0: each layer's own
  Fidelity fidelity = Fidelity::kTransactionLevel;  // of the simulations
};

ComparisonReport build_comparison(const ComparisonRequest& request);

std::string comparison_table(const ComparisonReport& report);
std::string comparison_markdown(const ComparisonReport& report);
std::string comparison_csv(const ComparisonReport& report);
nlohmann::ordered_json comparison_json(const ComparisonReport& report);

}  // namespace ergon
