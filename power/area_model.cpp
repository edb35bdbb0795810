#include "power/area_model.hpp"

#include <fmt/format.h>

namespace ergon {

double ChipArea::component_um2(std::string_view component) const {
  for (const ComponentArea& c : components) {
    if (c.component == component) return c.um2;
  }
  return 0.0;
}

double ChipArea::total_um2() const {
  double sum = 0;
  for (const ComponentArea& c : components) sum += c.um2;
  return sum;
}

namespace {

// A systolic PE holds one register per operand; with pipelined folds it keeps a second for the stationary
// one (all three when the dataflow is chosen per layer: any of them may be stationary).
void add_systolic_registers(const PeArrayConfig& array, AreaInputs& inputs) {
  inputs.ifmap_rf_bytes = array.word_bits / 8.0;
  inputs.filter_rf_bytes = array.weight_width() / 8.0;
  inputs.psum_rf_bytes = array.psum_bits() / 8.0;
  if (!array.pipelined_folds) return;
  const bool any = !array.dataflow.has_value();
  if (any || *array.dataflow == SystolicDataflow::kInputStationary) inputs.ifmap_rf_bytes *= 2;
  if (any || *array.dataflow == SystolicDataflow::kWeightStationary) inputs.filter_rf_bytes *= 2;
  if (any || *array.dataflow == SystolicDataflow::kOutputStationary) inputs.psum_rf_bytes *= 2;
}

// A row-stationary PE's scratchpads, in words of the array's width.
void add_scratchpads(const PeArrayConfig& array, AreaInputs& inputs) {
  const double word_bytes = array.word_bits / 8.0;
  inputs.filter_rf_bytes = static_cast<double>(array.rf.filter_entries) * word_bytes;
  inputs.ifmap_rf_bytes = static_cast<double>(array.rf.ifmap_entries) * word_bytes;
  inputs.psum_rf_bytes = static_cast<double>(array.rf.psum_entries) * word_bytes;
}

double rf_um2_per_pe(const AreaInputs& inputs, const AreaTable& table) {
  return inputs.filter_rf_bytes * table.filter_rf_um2_per_byte + inputs.ifmap_rf_bytes * table.ifmap_rf_um2_per_byte +
         inputs.psum_rf_bytes * table.psum_rf_um2_per_byte;
}

}  // namespace

AreaInputs area_inputs(const AcceleratorConfig& config) {
  AreaInputs inputs;
  inputs.pes = config.pe_array.rows * config.pe_array.cols;
  inputs.word_bits = config.pe_array.word_bits;
  if (config.pe_array.impl == "systolic") {
    add_systolic_registers(config.pe_array, inputs);
  } else {
    add_scratchpads(config.pe_array, inputs);
  }
  inputs.glb_bytes = (config.glb.size_kib + config.glb.filter_size_kib) * 1024.0;
  return inputs;
}

ChipArea chip_area(const AreaInputs& inputs, const AreaTable& table) {
  ChipArea area;
  area.notes.push_back("area from " + table.source);
  area.notes.insert(area.notes.end(), table.notes.begin(), table.notes.end());
  const std::optional<double> mac_um2 = table.mac_um2(inputs.word_bits);
  if (!mac_um2) {
    area.notes.push_back(fmt::format("{} gives no {}-bit MAC area: no area reported", table.file, inputs.word_bits));
    return area;
  }
  const double pes = static_cast<double>(inputs.pes);
  area.components.push_back({"mac", pes * *mac_um2});
  area.components.push_back({"rf", pes * rf_um2_per_pe(inputs, table)});
  area.components.push_back({"glb", inputs.glb_bytes * table.glb_um2_per_byte});
  if (table.noc_um2_per_pe) {
    area.components.push_back({"noc", pes * *table.noc_um2_per_pe});
  } else {
    area.notes.push_back("the NoC's area is not counted: the source gives none");
  }
  area.notes.push_back("not counted: the DRAM (off chip), control, clock tree, I/O and the routing between blocks");
  return area;
}

ChipArea chip_area(const AcceleratorConfig& config, const EnergyTable& table) {
  if (!table.area) {
    ChipArea area;
    area.notes = table.area_notes;
    area.notes.push_back("the energy table " + table.file + " has no area figures: no area reported");
    return area;
  }
  ChipArea area = chip_area(area_inputs(config), *table.area);
  area.notes.insert(area.notes.end(), table.area_notes.begin(), table.area_notes.end());
  return area;
}

}  // namespace ergon
