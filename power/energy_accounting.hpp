#pragma once
// Prices registered activity counters with an energy table: energy = count x energy per count, summed by
// component. Dynamic on-chip energy scales with (V/Vnom)^2, the DRAM's (the memory domain) with its own
// voltage ratio squared, clock-tree power with V^2 f, leakage with V and time; control is a fraction of the
// on-chip total, as in CNNergy.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/counter_registry.hpp"
#include "power/energy_table.hpp"

namespace ergon {

// Time the chip spent: clocked cycles at the operating point, and stopped (a DVFS switch: leakage only).
struct ActivityTime {
  std::uint64_t cycles = 0;
  double stopped_seconds = 0;
};

struct OperatingPoint {
  int word_bits = 16;
  double frequency_mhz = 200;
  double voltage_v = 1.0;
  double nominal_voltage_v = 1.0;     // the config's; the table's own when it has one (an ERT has none)
  double dram_energy_pj_per_bit = 0;  // 0: price DRAM traffic with the table's dram actions
  double dram_voltage_ratio = 1.0;    // memory-domain voltage / its nominal: DRAM energy scales with its square
  double glb_energy_scale = 1.0;      // the GLB's capacity against the table's reference (EnergyTable)
};

struct ComponentEnergy {
  std::string component;  // mac, rf, noc, glb, dram: the first part of the counters' names
  double pj = 0;
};

struct EnergyBreakdown {
  std::vector<ComponentEnergy> components;  // in the registry's order
  double clock_pj = 0;
  double control_pj = 0;
  double leakage_pj = 0;

  double component_pj(std::string_view component) const;  // 0 for a component with no energy
  double& component(std::string_view component);          // added at 0 when missing
  double on_chip_pj() const;                              // every component but the DRAM
  double total_pj() const;
  EnergyBreakdown& operator+=(const EnergyBreakdown& other);
};

// The DRAM is the memory domain: its energy follows the memory voltage and is not on chip.
inline constexpr std::string_view kMemoryComponent = "dram";

// The components with energy actions among `counters`, in their order: a report's energy columns.
std::vector<std::string> energy_components(const std::vector<CounterSpec>& counters);

EnergyBreakdown price_activity(const CounterValues& counts, const ActivityTime& time, const EnergyTable& table,
                               const OperatingPoint& point);

// The energy of one count of `action` with its share of control, as a mapper ranks by; 0 when no counter
// in `specs` is named `action`.
double action_price_pj(std::string_view action, const std::vector<CounterSpec>& specs, const EnergyTable& table,
                       const OperatingPoint& point);
// action_price_pj of every catalogue action: the mapper's prices.
ActionPrices action_prices(const std::vector<CounterSpec>& specs, const EnergyTable& table,
                           const OperatingPoint& point);

}  // namespace ergon
