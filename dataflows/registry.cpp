#include "dataflows/registry.hpp"

#include <algorithm>
#include <stdexcept>

namespace ergon {
std::vector<std::string> dataflow_names() {
  return Registry<DataflowPlugin>::instance().names();
}

const IDataflow& dataflow_of(const PeArrayConfig& config) {
  const DataflowPlugin* found = Registry<DataflowPlugin>::instance().find(config.impl);
  // The config loader has already checked the name; reaching this is a programming error.
  if (found == nullptr) throw std::logic_error("no PE array implementation '" + config.impl + "'");
  return **found;
}

bool is_row_stationary(const PeArrayConfig& config) {
  return config.impl == "row_stationary";
}

int layer_weight_bits(const AcceleratorConfig& config, const Layer& layer) {
  const int engine = config.pe_array.weight_width();
  if (is_row_stationary(config.pe_array) || layer.widths.weight_bits <= 0) return engine;
  return std::min(engine, layer.widths.weight_bits);
}

DramEncoding dram_encoding(const AcceleratorConfig& config, const Layer& layer, bool reads_network_input) {
  DramEncoding encoding;
  encoding.word_bits = config.pe_array.word_bits;
  encoding.psum_bits = config.pe_array.psum_bits();
  encoding.weight_bits = layer_weight_bits(config, layer);
  encoding.ifmap_raw = reads_network_input;
  encoding.ifmap_density = 1 - layer.sparsity.ifmap;
  encoding.ofmap_density = 1 - layer.sparsity.ofmap;
  encoding.compressed_activations = dataflow_of(config.pe_array).compresses_activations();
  return encoding;
}

LayerPlanning::LayerPlanning(const AcceleratorConfig& config, const AccessPrices& prices)
    : config_(config), dataflow_(dataflow_of(config.pe_array)), planner_(dataflow_.planner(config, prices)) {}

std::unique_ptr<LayerPlan> LayerPlanning::plan(const Layer& layer, std::int64_t batch, bool reads_network_input,
                                               const YamlView* constraints, const ResidencyPlanning* residency) {
  const DramEncoding encoding = dram_encoding(config_, layer, reads_network_input);
  if (auto plan = planner_->plan(layer, batch, encoding, constraints, residency)) return plan;
  std::unique_ptr<LayerPlan> plan;
  for (const auto& streaming : Registry<StreamingPlanner>::instance().items()) {
    plan = streaming.entry(layer, batch, config_, encoding);
    if (plan) break;
  }
  if (constraints != nullptr) {
    constraints->fail(plan ? "layer '" + layer.name + "' streams through the GLB in chunks: it has no mapping to pin"
                           : "layer '" + layer.name + "' does not run on the PE array: it has no mapping to pin");
  }
  return plan;
}

}  // namespace ergon
