#include "power/energy_accounting.hpp"

#include <algorithm>
#include <memory>

namespace ergon {

double EnergyBreakdown::component_pj(std::string_view name) const {
  for (const ComponentEnergy& c : components) {
    if (c.component == name) return c.pj;
  }
  return 0.0;
}

double& EnergyBreakdown::component(std::string_view name) {
  for (ComponentEnergy& c : components) {
    if (c.component == name) return c.pj;
  }
  components.push_back({std::string(name), 0.0});
  return components.back().pj;
}

double EnergyBreakdown::on_chip_pj() const {
  double sum = 0;
  for (const ComponentEnergy& c : components) sum += c.component == kMemoryComponent ? 0.0 : c.pj;
  return sum;
}

double EnergyBreakdown::total_pj() const {
  return on_chip_pj() + component_pj(kMemoryComponent) + clock_pj + control_pj + leakage_pj;
}

EnergyBreakdown& EnergyBreakdown::operator+=(const EnergyBreakdown& other) {
  for (const ComponentEnergy& c : other.components) component(c.component) += c.pj;
  clock_pj += other.clock_pj;
  control_pj += other.control_pj;
  leakage_pj += other.leakage_pj;
  return *this;
}

namespace {

// Energy of one count of `spec` at the operating point.
double count_pj(const CounterSpec& spec, const WordWidthEnergies& energies, const OperatingPoint& point,
                double dynamic_scale) {
  const ActionEnergy* entry = energies.find(spec.name);
  if (spec.component() == kMemoryComponent) {
    const double dram_scale = point.dram_voltage_ratio * point.dram_voltage_ratio;
    // A DRAM preset's energy per bit replaces the table's DRAM energies (docs/dram.md).
    if (point.dram_energy_pj_per_bit > 0 && spec.unit == "bytes") return dram_scale * 8 * point.dram_energy_pj_per_bit;
    return entry ? dram_scale * per_count_pj(*entry, spec, point.word_bits) : 0.0;
  }
  if (entry == nullptr) return 0.0;
  const double size_scale = spec.component() == "glb" ? point.glb_energy_scale : 1.0;
  return per_count_pj(*entry, spec, point.word_bits) * size_scale * dynamic_scale;
}

}  // namespace

std::vector<std::string> energy_components(const std::vector<CounterSpec>& counters) {
  std::vector<std::string> components;
  for (const CounterSpec& counter : counters) {
    const std::string component = counter.component();
    if (counter.energy_action && std::find(components.begin(), components.end(), component) == components.end()) {
      components.push_back(component);
    }
  }
  return components;
}

EnergyBreakdown price_activity(const CounterValues& counts, const ActivityTime& time, const EnergyTable& table,
                               const OperatingPoint& point) {
  const WordWidthEnergies& energies = table.at_word_bits(point.word_bits);
  const double nominal_v = table.nominal_voltage_v > 0 ? table.nominal_voltage_v : point.nominal_voltage_v;
  const double voltage_ratio = point.voltage_v / nominal_v;
  const double dynamic_scale = voltage_ratio * voltage_ratio;
  EnergyBreakdown energy;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const CounterSpec& spec = counts.specs()[i];
    if (!spec.energy_action) continue;
    energy.component(spec.component()) +=
        static_cast<double>(counts.value(i)) * count_pj(spec, energies, point, dynamic_scale);
  }
  const double seconds = static_cast<double>(time.cycles) / (point.frequency_mhz * 1e6);
  const double clock_mw =
      table.clock_reference_frequency_mhz > 0
          ? table.clock_tree_power_mw * dynamic_scale * (point.frequency_mhz / table.clock_reference_frequency_mhz)
          : 0.0;
  energy.clock_pj = clock_mw * 1e-3 * seconds * 1e12;
  energy.leakage_pj = table.leakage_power_mw * voltage_ratio * 1e-3 * (seconds + time.stopped_seconds) * 1e12;
  energy.control_pj = table.control_fraction / (1 - table.control_fraction) * (energy.on_chip_pj() + energy.clock_pj);
  return energy;
}

double action_price_pj(std::string_view action, const std::vector<CounterSpec>& specs, const EnergyTable& table,
                       const OperatingPoint& point) {
  auto shared = std::make_shared<const std::vector<CounterSpec>>(specs);
  std::vector<std::uint64_t> one(specs.size(), 0);
  for (std::size_t i = 0; i < specs.size(); ++i) one[i] = specs[i].name == action ? 1 : 0;
  return price_activity(CounterValues(shared, one), {}, table, point).total_pj();
}

ActionPrices action_prices(const std::vector<CounterSpec>& specs, const EnergyTable& table,
                           const OperatingPoint& point) {
  ActionPrices prices;
  for (const ActionSpec& action : action_catalogue())
    prices[action.id] = action_price_pj(action.name, specs, table, point);
  return prices;
}

}  // namespace ergon
