#include "studies/blackthorn/ergon_latency_backend.hpp"

#include <fmt/format.h>

#include "sim/simulation.hpp"

namespace ergon {

using blackthorn::LayerKind;

ErgonLatencyBackend::ErgonLatencyBackend(AcceleratorConfig config, EnergyTable table)
    : config_(std::move(config)), table_(std::move(table)) {}

YAML::Node single_layer_yaml(const blackthorn::LayerSpec& l, bool network_input) {
  YAML::Node root, input, layer;
  root["name"] = fmt::format("single_{}", blackthorn::layer_kind_name(l.kind));
  root["source"] = "generated one-layer workload";
  input["name"] = "input";
  input["op"] = "input";
  if (!network_input) input["intermediate"] = true;
  layer["name"] = "layer";
  layer["inputs"].push_back("input");
  switch (l.kind) {
    case LayerKind::kFullyConnected:
      for (int d : {l.inputs, 1, 1}) input["shape"].push_back(d);
      layer["op"] = "fc";
      layer["outputs"] = l.outputs;
      break;
    case LayerKind::kAdd:
    case LayerKind::kGlobalAvgPool:
      for (int d : {l.channels, l.height, l.width}) input["shape"].push_back(d);
      layer["op"] = blackthorn::layer_kind_name(l.kind);
      if (l.kind == LayerKind::kAdd) {  // two tensors of one shape, as a residual add reads
        YAML::Node second = YAML::Clone(input);
        second["name"] = "input2";
        root["layers"].push_back(second);
        layer["inputs"].push_back("input2");
      }
      break;
    default:
      for (int d : {l.channels, l.height, l.width}) input["shape"].push_back(d);
      layer["kernel"] = l.kernel;
      layer["stride"] = l.stride;
      layer["padding"] = l.padding;
      if (l.kind == LayerKind::kConv) {
        layer["op"] = "conv";
        layer["filters"] = l.filters;
      } else if (l.kind == LayerKind::kDepthwise) {
        layer["op"] = "conv";
        layer["depthwise"] = true;
      } else {
        layer["op"] = l.kind == LayerKind::kMaxPool ? "maxpool" : "avgpool";
      }
  }
  root["layers"].push_back(input);
  root["layers"].push_back(layer);
  return root;
}

double ErgonLatencyBackend::latency_ms(const blackthorn::LayerSpec& layer) {
  const Workload workload = parse_workload(single_layer_yaml(layer), "generated Blackthorn layer");
  ++simulations_;
  return Simulation(config_, table_, workload, SimulationOptions{}).run().total.time_ns / 1e6;
}

std::string ErgonLatencyBackend::describe() const {
  return fmt::format("ergon transaction-level simulation of {} ({})", config_.name, config_.file);
}

}  // namespace ergon
