#include "power/energy_accounting.hpp"

namespace ergon {

EnergyBreakdown& EnergyBreakdown::operator+=(const EnergyBreakdown& other) {
  mac_pj += other.mac_pj;
  rf_pj += other.rf_pj;
  noc_pj += other.noc_pj;
  glb_pj += other.glb_pj;
  dram_pj += other.dram_pj;
  clock_pj += other.clock_pj;
  control_pj += other.control_pj;
  leakage_pj += other.leakage_pj;
  return *this;
}

EnergyBreakdown price_activity(const ActivityCounts& activity, const EnergyTable& table, const OperatingPoint& point) {
  const AccessEnergies& e = table.at_word_bits(point.word_bits);
  const double voltage_ratio = point.voltage_v / table.nominal_voltage_v;
  const double dynamic_scale = voltage_ratio * voltage_ratio;
  const auto real = [](std::uint64_t count) { return static_cast<double>(count); };
  EnergyBreakdown energy;
  energy.mac_pj = real(activity.nonzero_macs) * e.mac_pj * dynamic_scale;
  energy.rf_pj = real(activity.rf_accesses) * e.rf_pj * dynamic_scale;
  // The table's GLB energy covers the trip GLB -> PE, so bus words are priced with the GLB accesses;
  // the NoC term is the psum hops between neighbouring PEs.
  energy.noc_pj = real(activity.inter_pe_words) * e.inter_pe_pj * dynamic_scale;
  energy.glb_pj = real(activity.glb_accesses) * e.glb_pj * point.glb_energy_scale * dynamic_scale;
  const double dram_scale = point.dram_voltage_ratio * point.dram_voltage_ratio;
  energy.dram_pj =
      dram_scale * (point.dram_energy_pj_per_bit > 0 ? real(activity.dram_bytes) * 8 * point.dram_energy_pj_per_bit
                                                     : real(activity.dram_bytes) * 8 / point.word_bits * e.dram_pj);
  const double seconds = real(activity.cycles) / (point.frequency_mhz * 1e6);
  const double clock_mw =
      table.clock_tree_power_mw * dynamic_scale * (point.frequency_mhz / table.clock_reference_frequency_mhz);
  energy.clock_pj = clock_mw * 1e-3 * seconds * 1e12;
  energy.leakage_pj = table.leakage_power_mw * voltage_ratio * 1e-3 * (seconds + activity.stopped_seconds) * 1e12;
  const double on_chip = energy.mac_pj + energy.rf_pj + energy.noc_pj + energy.glb_pj;
  energy.control_pj = table.control_fraction / (1 - table.control_fraction) * (on_chip + energy.clock_pj);
  return energy;
}

}  // namespace ergon
