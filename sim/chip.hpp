#pragma once
// A chip: an accelerator config with its energy table, checked against each other once, and what every run
// on the chip derives from the two alone (the prices the mapper ranks by). The run pipeline
// (sim/run_pipeline.hpp) takes one, so a command that runs a chip several times (dvfs, a Python session)
// loads and checks it once.
#include "arch/accelerator_config.hpp"
#include "arch/operating_levels.hpp"
#include "dataflows/access_prices.hpp"
#include "power/energy_accounting.hpp"
#include "power/energy_table.hpp"

namespace ergon {

// How `table` prices a layer run at `levels` on `config`'s chip (price_activity's operating point).
OperatingPoint operating_point(const AcceleratorConfig& config, const EnergyTable& table,
                               const OperatingLevels& levels);

// The energy of each kind of access at the config's nominal operating point: what a mapper ranks by.
AccessPrices access_prices(const AcceleratorConfig& config, const EnergyTable& table);

class Chip {
 public:
  // Fails (InputError) when the table lacks the config's word width, prices an action nothing counts, or
  // leaves one unpriced.
  Chip(AcceleratorConfig config, EnergyTable table);
  // With the energy table the config names (`energy.table`).
  explicit Chip(AcceleratorConfig config);

  const AcceleratorConfig& config() const { return config_; }
  const EnergyTable& table() const { return table_; }
  const AccessPrices& prices() const { return prices_; }  // at the nominal operating point
  OperatingPoint operating_point(const OperatingLevels& levels) const;

 private:
  AcceleratorConfig config_;
  EnergyTable table_;
  AccessPrices prices_;
};

}  // namespace ergon
