#include "power/dram/drampower_energy.hpp"

#include <stdexcept>

#include "arch/dram/banked/dram_specs.hpp"

namespace ergon {

DramEnergyByKind dram_energy_between(const DramConfig& config, const DramCommandCounts& at_start,
                                     const DramCommandCounts& at_end) {
  const DramSpec* spec = find_dram_spec(config.preset);
  if (spec == nullptr) {
    throw std::invalid_argument("dram.impl '" + config.impl + "' counts its commands, but dram.preset '" +
                                config.preset + "' has no datasheet currents to price them");
  }
  return dram_energy(*spec, at_end) - dram_energy(*spec, at_start);
}

}  // namespace ergon
