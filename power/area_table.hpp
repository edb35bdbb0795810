#pragma once
// The area figures of a technology: a table's `area` section (docs/area.md), or an Accelergy ART (the area
// counterpart of an ERT, power/accelergy_art). Each figure is per unit of what a config sizes: a MAC of a
// word width, a byte of each operand's PE register file, a byte of the global buffer, a PE's share of the
// NoC. power/area_model multiplies them by a config's sizes.
#include <optional>
#include <string>
#include <vector>

#include "common/yaml_view.hpp"

namespace ergon {

// The bounds on an area figure: 1 m^2 (10^12 um^2) is beyond any die, a typo rather than a technology.
inline constexpr NumberRule kAreaUm2{0.0, 1e12, false};

struct MacArea {
  int word_bits = 16;
  double um2 = 0;  // one MAC unit (multiplier and accumulating adder) of that width
};

struct AreaTable {
  std::string source;
  std::string file;  // where the figures were read (the table, or the ART)
  std::vector<MacArea> macs;
  // An ART gives one MAC of its own width: other widths scale with the square of the width (the
  // multiplier's, which dominates); a table lists each width it has.
  bool mac_scales_with_width = false;
  double filter_rf_um2_per_byte = 0;
  double ifmap_rf_um2_per_byte = 0;
  double psum_rf_um2_per_byte = 0;
  double glb_um2_per_byte = 0;
  std::optional<double> noc_um2_per_pe;  // absent: the source gives no NoC area
  std::vector<std::string> notes;        // how the figures were derived, what the source lacks

  // One MAC's area at `word_bits`; nullopt when the table has no figure for that width.
  std::optional<double> mac_um2(int word_bits) const;
};

// An Ergon table's `area:` section: the figures (`source`, `mac_um2: {8: um2, 16: um2}`,
// `register_file_um2_per_byte: {filter, ifmap, psum}`, `glb_um2_per_byte`, optional `noc_um2_per_pe`), or
// `accelergy_art: FILE` (relative to the table). Errors name the file, line and key.
AreaTable parse_area_section(YamlMap section, const std::string& table_file);

}  // namespace ergon
