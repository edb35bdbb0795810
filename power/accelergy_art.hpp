#pragma once
// Accelergy area reference tables (ART.yaml, written beside the ERT: `ART: {version, tables: [{name,
// area}]}`, areas in um^2 per instance) read as area figures per unit of what a config sizes (docs/area.md):
// components are found by the ERT's name rules (power/accelergy_ert), a storage's area is divided by its
// capacity and a MAC's kept with its width, both from `attributes` added from the architecture (Accelergy's
// ART does not copy them, as its ERT does not).
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "common/input_error.hpp"
#include "power/area_table.hpp"

namespace ergon {

// One component's area in an ART, with what its `attributes` say of its size.
struct ArtArea {
  std::string component;  // the full hierarchical name, e.g. system_top_level.ifmap_spad[1..168]
  double um2 = 0;         // one instance
  SourceLocation where;
  std::string key_path;
  double capacity_bytes = 0;  // `depth` x the access width (`width`, or `datawidth` x `block_size`) / 8; 0: not given
  int mac_bits = 0;           // `multiplier_width`, else `datawidth`; 0: not given
};

std::vector<ArtArea> read_art(const std::string& path, const YAML::Node& document);

// The area figures an ART gives: its MAC (one, with its width: others scale with the square of the width),
// each operand's register file per byte (the file whose name holds the operand, or the only one), the
// global buffer per byte; the DRAM is off chip, and components no rule matches (Timeloop's spatial dummies)
// are left out, noted. An InputError names the file, line and component when a needed size is missing or
// two components match one part.
AreaTable area_table_from_art(const std::string& path, const YAML::Node& document);

// The ART Accelergy writes beside `ert_path` (`ERT.yaml` -> `ART.yaml`, `timeloop-mapper.ERT.yaml` ->
// `timeloop-mapper.ART.yaml`); empty when the name holds no "ERT".
std::string sibling_art_path(const std::string& ert_path);

}  // namespace ergon
