#pragma once
// The dataflow plug-ins, chosen by `pe_array.impl`. Each registers itself from its plug-in file, so adding a
// dataflow is its files (arch/dataflows/<name>_dataflow.{hpp,cpp} with its arrays and planner) plus their
// lines in arch/CMakeLists.txt (docs/architecture.md):
//   ERGON_REGISTER(DataflowPlugin, "name", &my_dataflow())
#include <memory>
#include <string>
#include <vector>

#include "arch/dataflows/dataflow.hpp"
#include "common/registry.hpp"

namespace ergon {

using DataflowPlugin = const IDataflow*;

// The registered names, in alphabetical order.
std::vector<std::string> dataflow_names();
// Throws std::logic_error for a name the config loader would have refused.
const IDataflow& dataflow_of(const PeArrayConfig& config);
// Analytical models of Eyeriss (CNNergy) apply only to row-stationary arrays.
bool is_row_stationary(const PeArrayConfig& config);

// How the layer's tensors are stored in DRAM on this config. `reads_network_input`: its ifmap is the
// network's input (stored raw).
DramEncoding dram_encoding(const AcceleratorConfig& config, const Layer& layer, bool reads_network_input);

// Plans the layers of one run on the config's dataflow; layers the dataflow does not run as a loop nest
// stream through the GLB as element-wise layers when they move data.
class LayerPlanning {
 public:
  LayerPlanning(const AcceleratorConfig& config, const AccessPrices& prices);
  // Null when the layer is not executed on the array. `reads_network_input`: its ifmap is the network's
  // input (stored raw in DRAM). `constraints`: the layer's entry in a mapping file, or null. Throws
  // MappingError when no mapping fits (and InputError, located in the mapping file, when the constraints
  // leave none).
  std::unique_ptr<LayerPlan> plan(const Layer& layer, std::int64_t batch, bool reads_network_input,
                                  const YamlView* constraints = nullptr);

 private:
  const AcceleratorConfig& config_;
  const IDataflow& dataflow_;
  std::unique_ptr<ILayerPlanner> planner_;
};

}  // namespace ergon
