#pragma once
// Accelergy energy reference tables (ERT.yaml, as `accelergy` writes it: `ERT: {version, tables: [{name,
// actions: [{name, arguments, energy}]}]}`) mapped onto Ergon's energy actions. The mapping is in
// docs/energy.md: by default each Ergon component is found by the last part of an ERT component's name
// (`mac`, `*_spad`/`rf`/`regfile`, `noc`/`network`/`bus`, `glb`/`buffer`/`sram`, `dram`), each action by
// name (`mac_random`, `read`, `write`, `transfer`); a table's `accelergy_ert.actions` maps the rest.
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "common/yaml_view.hpp"
#include "power/energy_table.hpp"

namespace ergon {

// One energy of an ERT: an action of a component, with its arguments (empty: none).
struct ErtEnergy {
  std::string component;  // the full hierarchical name, e.g. system.eyeriss.PE[0..167].ifmap_spad
  std::string action;
  std::string arguments;  // the arguments as YAML flow text; empty when null or {}
  double pj = 0;
  SourceLocation where;
  std::string key_path;
  int access_bits = 0;  // bits one access of the component moves, from its attributes; 0: not given
};

// The Ergon component an Accelergy component (an ERT's or an ART's) stands for, by the words of the last part
// of its name (docs/energy.md, "The default mapping"): "mac", "rf", "noc", "glb", "dram", or "" for none.
std::string accelergy_component_kind(const std::string& component);
// Whether a register file's name holds `operand`'s words ("ifmap", "filter" or "psum").
bool accelergy_holds_operand(const std::string& component, const std::string& operand);
// The bits one access of a component moves, from its `attributes` (below); 0 when they give none.
int accelergy_access_bits(YamlMap& component);

// Every energy of an ERT document. A component's optional `attributes` give its access width: `width`
// (bits per access), else a word width (`datawidth`, `word_width`, `word_bits`) times the words per access
// (`block_size`, default 1), as Accelergy's architecture attributes name them. Keys Ergon does not use
// (area, estimator names, other attributes) are ignored.
std::vector<ErtEnergy> read_ert(const std::string& path, const YAML::Node& document);

// A table priced by a bare ERT (`energy.table: ERT.yaml`): the default mapping, each data energy per
// access of its component's width (per word of the configured width when the ERT gives none, noted), and
// no clock tree, control or leakage (an ERT has none); `notes` say so.
EnergyTable energy_table_from_ert(const std::string& path, const YAML::Node& document);

// An Ergon table's `accelergy_ert:` section: `file` (relative to the table), `word_bits`, and optional
// `actions` mapping Ergon actions to an ERT `component.action` (per access of the component's width),
// `{energy_of, bits_per_access}`, or pJ.
void add_ert_energies(YamlMap section, EnergyTable& table);

}  // namespace ergon
