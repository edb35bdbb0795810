#include "arch/accelerator_config.hpp"

#include <map>
#include <memory>
#include <stdexcept>

#include "arch/config_keys.hpp"
#include "common/text.hpp"
#include "common/yaml_view.hpp"

namespace ergon {
namespace {

const std::vector<AcceleratorConfigSections::Item>& sections() {
  const auto& items = AcceleratorConfigSections::instance().items();
  // The declarations live in ergon_config_keys; a binary that links it without its whole archive has none.
  if (items.empty()) throw std::logic_error("no config keys are registered: link ergon_config_keys whole");
  return items;
}

std::string parent_of(const std::string& path) {
  const std::size_t dot = path.rfind('.');
  return dot == std::string::npos ? "" : path.substr(0, dot);
}

// The loaded value of a declared key, as text (a plug-in key's value is the plug-in's name).
std::string value_text(const std::string& path, const AcceleratorConfig& config) {
  for (const auto& item : sections()) {
    for (const AcceleratorConfigKey& key : item.entry.keys) {
      if (key.info.path == path && key.value) {
        const nlohmann::ordered_json value = key.value(config);
        return value.is_string() ? value.get<std::string>() : value.dump();
      }
    }
  }
  throw std::logic_error("no config key '" + path + "' to decide a section by");
}

// A YAML mapping the sections read, opened once; `present` is false when the file leaves it out (its
// sections then read their defaults from an empty mapping).
struct OpenMap {
  YamlMap map;
  bool present;
};

// `required`: a missing mapping is an error (when its parent is given).
OpenMap& open_map(std::map<std::string, OpenMap>& maps, const std::string& path, bool required) {
  if (const auto found = maps.find(path); found != maps.end()) return found->second;
  OpenMap& parent = open_map(maps, parent_of(path), false);
  const std::string leaf = key_leaf(path);
  if (parent.map.has(leaf) || (parent.present && required)) {
    return maps.emplace(path, OpenMap{parent.map.get_map(leaf), true}).first->second;
  }
  const YamlView& at = parent.map.view();
  return maps.emplace(path, OpenMap{YamlMap(at.child(YAML::Node(YAML::NodeType::Map), leaf)), false}).first->second;
}

// Whether another section of the same mapping that applies derives this key itself (dram.impl: banked takes
// the bandwidth from its preset).
bool derived_elsewhere(const AcceleratorConfigSection& owner, const std::string& leaf,
                       const AcceleratorConfig& config) {
  for (const auto& item : sections()) {
    const AcceleratorConfigSection& other = item.entry;
    if (&other == &owner || other.path != owner.path || !section_applies(other, config)) continue;
    for (const std::string& derived : other.derives) {
      if (derived == leaf) return true;
    }
  }
  return false;
}

void load_section(const AcceleratorConfigSection& section, YamlMap& map, YamlMap& root, AcceleratorConfig& config) {
  if (section.prepare) section.prepare(map, config);
  for (const AcceleratorConfigKey& key : section.keys) {
    if (key.load && !derived_elsewhere(section, key_leaf(key.info.path), config)) key.load(map, config);
  }
  if (section.check) section.check(map, root, config);
}

// A section whose plug-in is not chosen, in a mapping other sections read too: its keys must not be given
// (some accept their default value).
void refuse_section(const AcceleratorConfigSection& section, OpenMap& open, const AcceleratorConfig& config) {
  if (!open.present) return;
  for (const AcceleratorConfigKey& key : section.keys) {
    const std::string leaf = key_leaf(key.info.path);
    if (!key.load || !open.map.has(leaf)) continue;
    const YamlView present = open.map.at(leaf);
    if (key.refuse) {
      key.refuse(present, config);
    } else {
      present.fail(key.info.path + " applies to " + section.applies.text() + " only");
    }
  }
}

AcceleratorConfig load_document(YAML::Node root_node, const std::shared_ptr<const YamlOrigin>& origin) {
  YamlMap root(YamlView(root_node, origin, ""));
  AcceleratorConfig config;
  config.file = origin->file;
  const auto& items = sections();
  std::map<std::string, std::size_t> last_section;  // a mapping's unknown keys are reported after its last section
  for (std::size_t i = 0; i < items.size(); ++i) {
    for (std::string path = items[i].entry.path;; path = parent_of(path)) {
      last_section[path] = i;
      if (path.empty()) break;
    }
  }
  std::map<std::string, OpenMap> maps = {{"", OpenMap{root, true}}};
  for (std::size_t i = 0; i < items.size(); ++i) {
    const AcceleratorConfigSection& section = items[i].entry;
    const bool applies = section_applies(section, config);
    if (!applies && section.refuse) {  // a plug-in's own mapping, whatever it holds, is refused where given
      OpenMap& parent = open_map(maps, parent_of(section.path), false);
      if (parent.map.has(key_leaf(section.path))) section.refuse(parent.map.at(key_leaf(section.path)), config);
    } else {
      OpenMap& open = open_map(maps, section.path, applies && section.required);
      if (open.present || !section.present) {  // a section with `present` (a study's) is read only when given
        if (applies) {
          load_section(section, open.map, root, config);
        } else {
          refuse_section(section, open, config);
        }
      }
    }
    for (auto entry = maps.rbegin(); entry != maps.rend(); ++entry) {  // inner mappings first
      if (last_section[entry->first] == i && entry->second.present) entry->second.map.reject_unknown_keys();
    }
  }
  return config;
}

// Sets `path` (dot-separated) in a nested JSON object.
void set_at(nlohmann::ordered_json& json, const std::string& path, nlohmann::ordered_json value) {
  const std::size_t dot = path.find('.');
  if (dot == std::string::npos) {
    json[path] = std::move(value);
    return;
  }
  set_at(json[path.substr(0, dot)], path.substr(dot + 1), std::move(value));
}

}  // namespace

bool section_applies(const AcceleratorConfigSection& section, const AcceleratorConfig& config) {
  return section.applies.key.empty() ||
         ascii_lower(value_text(section.applies.key, config)) == ascii_lower(section.applies.value);
}

std::vector<ConfigKeyInfo> accelerator_config_keys() {
  std::vector<ConfigKeyInfo> keys;
  for (const auto& item : sections()) {
    for (const AcceleratorConfigKey& key : item.entry.keys) {
      ConfigKeyInfo info = key.described();
      if (info.applies_when.empty()) info.applies_when = item.entry.applies.text();
      keys.push_back(std::move(info));
    }
  }
  return keys;
}

nlohmann::ordered_json accelerator_config_values(const AcceleratorConfig& config) {
  nlohmann::ordered_json values = nlohmann::ordered_json::object();
  for (const auto& item : sections()) {
    const AcceleratorConfigSection& section = item.entry;
    if (!section_applies(section, config) || (section.present && !section.present(config))) continue;
    for (const AcceleratorConfigKey& key : section.keys) {
      if (key.value) set_at(values, key.info.path, key.value(config));
    }
  }
  return values;
}

AcceleratorConfig load_accelerator_config(const std::string& path, const std::vector<std::string>& overrides) {
  return load_accelerator_config(load_yaml_file(path), path, overrides);
}

AcceleratorConfig load_accelerator_config(const YAML::Node& document, const std::string& path,
                                          const std::vector<std::string>& overrides) {
  auto origin = std::make_shared<YamlOrigin>(YamlOrigin{path, {}});
  YAML::Node root = document;  // the same tree: the overrides are undone before this returns
  const ScopedOverrides applied(root, overrides, *origin);
  return load_document(root, origin);
}

OperatingLevels nominal_levels(const AcceleratorConfig& config) {
  return {config.clock.frequency_mhz, config.clock.voltage_v, config.dram.bandwidth_gbps, config.dvfs.memory_voltage_v};
}

}  // namespace ergon
