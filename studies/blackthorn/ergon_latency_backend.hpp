#pragma once
// Blackthorn's first platform backend: a layer's latency as Ergon simulates it at transaction level on
// one accelerator config (the layer alone, its input an intermediate feature map).
#include "arch/accelerator_config.hpp"
#include "power/energy_table.hpp"
#include "power/estimators/blackthorn/layer_models.hpp"

namespace ergon {

class ErgonLatencyBackend : public blackthorn::ILatencyBackend {
 public:
  ErgonLatencyBackend(AcceleratorConfig config, EnergyTable table);
  double latency_ms(const blackthorn::LayerSpec& layer) override;
  std::string describe() const override;
  std::size_t simulations() const { return simulations_; }

 private:
  AcceleratorConfig config_;
  EnergyTable table_;
  std::size_t simulations_ = 0;
};

// A one-layer workload. Its input is a feature map inside a network (stored as the network stores them),
// or with `network_input` the network's own input (stored raw).
YAML::Node single_layer_yaml(const blackthorn::LayerSpec& layer, bool network_input = false);

}  // namespace ergon
