#include "sim/chip.hpp"

#include "arch/components.hpp"
#include "sim/data_paths.hpp"

namespace ergon {

OperatingPoint operating_point(const AcceleratorConfig& config, const EnergyTable& table,
                               const OperatingLevels& levels) {
  OperatingPoint point;
  point.word_bits = config.pe_array.word_bits;
  point.frequency_mhz = levels.frequency_mhz;
  point.voltage_v = levels.voltage_v;
  point.nominal_voltage_v = config.clock.voltage_v;
  point.dram_energy_pj_per_bit = config.dram.energy_pj_per_bit;
  point.dram_voltage_ratio = levels.memory_voltage_v / config.dvfs.memory_voltage_v;
  point.glb_energy_scale = table.glb_energy_scale(config.glb.size_kib);
  return point;
}

AccessPrices access_prices(const AcceleratorConfig& config, const EnergyTable& table) {
  const OperatingPoint point = operating_point(config, table, nominal_levels(config));
  AccessPrices prices;
  prices.action = action_prices(module_counter_specs(config), table, point);
  prices.cycle_pj = price_activity(CounterValues(), {1, 0}, table, point).total_pj();
  return prices;
}

Chip::Chip(AcceleratorConfig config, EnergyTable table) : config_(std::move(config)), table_(std::move(table)) {
  check_table_prices(table_, config_.pe_array.word_bits, module_counter_specs(config_));
  prices_ = access_prices(config_, table_);
}

Chip::Chip(AcceleratorConfig config) : Chip(config, load_energy_table(energy_table_path(config))) {}

OperatingPoint Chip::operating_point(const OperatingLevels& levels) const {
  return ergon::operating_point(config_, table_, levels);
}

}  // namespace ergon
