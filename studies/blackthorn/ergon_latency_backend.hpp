#pragma once
// Blackthorn's first platform backend: a layer's latency as Ergon simulates it on one accelerator config
// (the layer alone, its input an intermediate feature map), at the batch and fidelity the command gives.
#include "arch/accelerator_config.hpp"
#include "power/energy_table.hpp"
#include "power/estimators/blackthorn/layer_models.hpp"
#include "sim/simulation.hpp"

namespace ergon {

class ErgonLatencyBackend : public blackthorn::ILatencyBackend {
 public:
  // `simulation`: --batch and --fidelity, for every layer simulated (see simulate_in_worker).
  ErgonLatencyBackend(AcceleratorConfig config, EnergyTable table, SimulationOptions simulation);
  // Per image: the layer's simulated time for its batch divided by the batch, the unit the models predict
  // in (estimate_blackthorn multiplies by a workload's batch).
  double latency_ms(const blackthorn::LayerSpec& layer) override;
  std::string describe() const override;
  std::size_t simulations() const { return simulations_; }

 private:
  AcceleratorConfig config_;
  EnergyTable table_;
  SimulationOptions simulation_;
  std::size_t simulations_ = 0;
};

// A one-layer workload. Its input is a feature map inside a network (stored as the network stores them),
// or with `network_input` the network's own input (stored raw).
YAML::Node single_layer_yaml(const blackthorn::LayerSpec& layer, bool network_input = false);

// One simulation of a study (`fit lahmer`, `profile blackthorn`) with the command's --batch and --fidelity.
// Studies simulate in worker processes (sim/parallel/process_pool), each a copy of the parent: an observer
// (progress, traces) would act on a copy nobody reads, so options with observers are refused
// (std::invalid_argument). A cycle-accurate output that differs from the reference is an error naming the
// layer, never a figure.
SimulationResult simulate_in_worker(const AcceleratorConfig& config, const EnergyTable& table, const Workload& workload,
                                    const SimulationOptions& simulation);

}  // namespace ergon
