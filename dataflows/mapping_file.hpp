#pragma once
// A mapping file (`--mapping F`, docs/mapping.md): per layer, the mapping parameters to pin, the way
// Timeloop's constraints do; the mapper searches the rest. Each dataflow reads the keys it knows and
// refuses the others at their line.
//
//   layers:
//     conv1: {ofmap_rows: 2, loop_order: [filters, ofmap_rows, channels, images]}
//     conv3: {glb_slots: {ifmap: 1}, double_buffered: false}
#include <map>
#include <string>
#include <vector>

#include "common/yaml_view.hpp"

namespace ergon {

struct MappingFile {
  std::string path;
  std::map<std::string, YamlView> layers;  // by layer name
  // The layer's entry, or null when the file does not name it.
  const YamlView* constraints_of(const std::string& layer) const;
};

MappingFile load_mapping_file(const std::string& path);
// "workload 'W' has no layer 'x'; did you mean 'y'?"
std::string unknown_layer_message(const std::string& name, const std::vector<std::string>& layer_names,
                                  const std::string& workload_name);
// Fails at the first entry naming no layer of the workload, suggesting the closest name.
void check_mapping_layers(const MappingFile& file, const std::vector<std::string>& layer_names,
                          const std::string& workload_name);

}  // namespace ergon
