#include "sim/simulation.hpp"

#include <stdexcept>

#include "sim/run_pipeline.hpp"

namespace ergon {

std::string SimulationResult::bound_name(const LayerResult& layer) const {
  return layer.bound == kNoResource ? "n/a" : resources.at(layer.bound).name;
}

std::optional<ResourceKind> SimulationResult::bound_kind(const LayerResult& layer) const {
  if (layer.bound == kNoResource) return std::nullopt;
  return resources.at(layer.bound).kind;
}

const char* fidelity_name(Fidelity fidelity) {
  return fidelity == Fidelity::kCycleAccurate ? "cycle" : "tlm";
}

const char* fidelity_title(Fidelity fidelity) {
  return fidelity == Fidelity::kCycleAccurate ? "cycle-accurate" : "transaction-level";
}

SimulationOptions options_at(Fidelity fidelity) {
  SimulationOptions options;
  options.fidelity = fidelity;
  return options;
}

Fidelity parse_fidelity(const std::string& name) {
  if (name == "tlm") return Fidelity::kTransactionLevel;
  if (name == "cycle") return Fidelity::kCycleAccurate;
  throw std::invalid_argument("fidelity must be 'tlm' or 'cycle', not '" + name + "'");
}

Simulation::Simulation(AcceleratorConfig config, EnergyTable table, const Workload& workload, SimulationOptions options)
    : chip_(std::move(config), std::move(table)), workload_(workload), options_(std::move(options)) {
  check_run_options(chip_, workload_, options_);  // fail before simulating
}

SimulationResult Simulation::run() {
  return run_pipeline(chip_, workload_, options_);
}

}  // namespace ergon
