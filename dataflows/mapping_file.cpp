#include "dataflows/mapping_file.hpp"

#include <algorithm>
#include <memory>

#include "common/text.hpp"

namespace ergon {

const YamlView* MappingFile::constraints_of(const std::string& layer) const {
  const auto found = layers.find(layer);
  return found == layers.end() ? nullptr : &found->second;
}

MappingFile load_mapping_file(const std::string& path) {
  MappingFile file;
  file.path = path;
  auto origin = std::make_shared<YamlOrigin>(YamlOrigin{path, {}});
  YamlMap root(YamlView(load_yaml_file(path), origin, ""));
  const YamlView layers = root.at("layers");
  if (!layers.node().IsMap()) layers.fail("give a map from layer names to the parameters to pin");
  for (const auto& entry : layers.node()) {
    const std::string name = entry.first.as<std::string>();
    const YamlView constraints = layers.child(entry.second, name);
    if (!entry.second.IsMap()) constraints.fail("give the layer's parameters to pin as a map (key: value)");
    file.layers.emplace(name, constraints);
  }
  root.reject_unknown_keys();
  return file;
}

std::string unknown_layer_message(const std::string& name, const std::vector<std::string>& layer_names,
                                  const std::string& workload_name) {
  const std::string suggestion = closest_match(name, layer_names);
  return "workload '" + workload_name + "' has no layer '" + name + "'" +
         (suggestion.empty() ? std::string() : "; did you mean '" + suggestion + "'?");
}

void check_mapping_layers(const MappingFile& file, const std::vector<std::string>& layer_names,
                          const std::string& workload_name) {
  for (const auto& [name, constraints] : file.layers) {
    if (std::find(layer_names.begin(), layer_names.end(), name) != layer_names.end()) continue;
    constraints.fail(unknown_layer_message(name, layer_names, workload_name));
  }
}

}  // namespace ergon
