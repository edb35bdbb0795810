#include "studies/blackthorn/ergon_latency_backend.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "sim/data_paths.hpp"

namespace ergon {

using blackthorn::LayerKind;

ErgonLatencyBackend::ErgonLatencyBackend(AcceleratorConfig config, EnergyTable table, SimulationOptions simulation)
    : config_(std::move(config)), table_(std::move(table)), simulation_(std::move(simulation)) {}

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
  const SimulationResult result = simulate_in_worker(config_, table_, workload, simulation_);
  return result.total.time_ns / 1e6 / static_cast<double>(result.layers.back().batch);
}

std::string ErgonLatencyBackend::describe() const {
  const std::string batch =
      simulation_.batch ? fmt::format(" at batch {}, latency per image", *simulation_.batch) : std::string();
  return fmt::format("ergon {} simulation of {} ({}){}", fidelity_title(simulation_.fidelity), config_.name,
                     shown_data_path(config_.file), batch);
}

SimulationResult simulate_in_worker(const AcceleratorConfig& config, const EnergyTable& table, const Workload& workload,
                                    const SimulationOptions& simulation) {
  const RunObservers& o = simulation.observers;
  if (o.activity || o.trace || o.layer_done || o.interrupt_requested || o.step_done) {
    throw std::invalid_argument("a study's simulations run in worker processes and take no observers");
  }
  SimulationResult result = Simulation(config, table, workload, simulation).run();
  for (const LayerResult& layer : result.layers) {
    if (layer.output_mismatches > 0) {
      throw std::runtime_error(fmt::format("{} layer {}: the simulated output differs from the reference in {} values",
                                           workload.name(), layer.name, layer.output_mismatches));
    }
  }
  return result;
}

}  // namespace ergon
