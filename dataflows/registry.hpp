#pragma once
// The dataflow plug-ins, chosen by `pe_array.impl`. Each registers itself from its plug-in file, so adding a
// dataflow is its folder (dataflows/<name>/, its plug-in in <name>_dataflow.{hpp,cpp}) and its arrays
// (arch/pe_array/impl/, registered under the same name) plus their lines in dataflows/CMakeLists.txt and
// arch/CMakeLists.txt (docs/architecture.md):
//   ERGON_REGISTER(DataflowPlugin, "name", &my_dataflow())
// Layers no dataflow runs as a loop nest go to the streaming planners (dataflows/elementwise/ registers one):
//   ERGON_REGISTER(StreamingPlanner, "name", &plan_streamed)
#include <memory>
#include <string>
#include <vector>

#include "common/registry.hpp"
#include "dataflows/dataflow.hpp"

namespace ergon {

using DataflowPlugin = const IDataflow*;
// Plans a layer the dataflow does not run as a loop nest; null when it moves no data.
using StreamingPlanner = std::unique_ptr<LayerPlan> (*)(const Layer& layer, std::int64_t batch,
                                                        const AcceleratorConfig& config, const DramEncoding& encoding);

// The registered names, in alphabetical order.
std::vector<std::string> dataflow_names();
// Throws std::logic_error for a name the config loader would have refused.
const IDataflow& dataflow_of(const PeArrayConfig& config);
// Analytical models of Eyeriss (CNNergy) apply only to row-stationary arrays.
bool is_row_stationary(const PeArrayConfig& config);

// How the layer's tensors are stored in DRAM on this config. `reads_network_input`: its ifmap is the
// network's input (stored raw).
// The width a layer's weights are stored and moved at: a systolic engine packs a quantised layer's narrower
// weights (Layer::widths) as it does pe_array.weight_bits; a wider layer runs at the engine's width, as
// deploying it there quantises it; row stationary keeps its word.
int layer_weight_bits(const AcceleratorConfig& config, const Layer& layer);

DramEncoding dram_encoding(const AcceleratorConfig& config, const Layer& layer, bool reads_network_input);

// Plans the layers of one run on the config's dataflow; layers the dataflow does not run as a loop nest
// stream through the GLB (the streaming planners) when they move data.
class LayerPlanning {
 public:
  LayerPlanning(const AcceleratorConfig& config, const AccessPrices& prices);
  // Null when the layer is not executed on the array. `reads_network_input`: its ifmap is the network's
  // input (stored raw in DRAM). `constraints`: the layer's entry in a mapping file, or null. Throws
  // MappingError when no mapping fits (and InputError, located in the mapping file, when the constraints
  // leave none). `residency`: the layer planned again with what the GLB holds of it.
  std::unique_ptr<LayerPlan> plan(const Layer& layer, std::int64_t batch, bool reads_network_input,
                                  const YamlView* constraints = nullptr, const ResidencyPlanning* residency = nullptr);

 private:
  const AcceleratorConfig& config_;
  const IDataflow& dataflow_;
  std::unique_ptr<ILayerPlanner> planner_;
};

}  // namespace ergon
