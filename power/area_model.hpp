#pragma once
// A chip's silicon area from its config and its technology's area figures (docs/area.md): the PE array's
// MACs and register files, the global buffer by capacity, the NoC when the source gives it. The DRAM is off
// chip and not counted; neither are control, clock tree, I/O or the routing between blocks.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "arch/accelerator_config.hpp"
#include "power/area_table.hpp"
#include "power/energy_table.hpp"

namespace ergon {

// What a config's area depends on.
struct AreaInputs {
  std::int64_t pes = 0;
  int word_bits = 16;
  // Each PE's storage per operand, bytes: a row-stationary PE's scratchpads, a systolic PE's operand
  // registers (docs/area.md).
  double filter_rf_bytes = 0;
  double ifmap_rf_bytes = 0;
  double psum_rf_bytes = 0;
  double glb_bytes = 0;  // the global buffer and, when apart, the filter store
};

AreaInputs area_inputs(const AcceleratorConfig& config);

struct ComponentArea {
  std::string component;  // mac, rf, glb, noc: the energy components' names
  double um2 = 0;
};

struct ChipArea {
  std::vector<ComponentArea> components;  // empty: the table gives no area (notes say why)
  std::vector<std::string> notes;         // the source, what is left out, how figures were derived

  bool known() const { return !components.empty(); }
  double component_um2(std::string_view component) const;  // 0 for one not listed
  double total_um2() const;
};

ChipArea chip_area(const AreaInputs& inputs, const AreaTable& table);
// With the table's area figures; not known when it has none or none for the config's word width.
ChipArea chip_area(const AcceleratorConfig& config, const EnergyTable& table);

}  // namespace ergon
