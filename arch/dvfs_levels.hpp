#pragma once
// Lookups in a DVFS domain's level table (arch/accelerator_config.hpp): the voltage a continuous
// frequency needs, and the lowest legal level at or above a wanted one.
#include <algorithm>
#include <vector>

#include "arch/accelerator_config.hpp"

namespace ergon {
namespace dvfs_detail {

// Linear between neighbouring levels; below the lowest level, proportional to the value (V ~ f) down to
// the domain's minimum voltage.
template <typename Level>
double voltage_at(const std::vector<Level>& levels, double Level::*value, double wanted, double min_voltage_v) {
  const Level& lowest = levels.front();
  if (wanted <= lowest.*value) return std::max(min_voltage_v, lowest.voltage_v * wanted / (lowest.*value));
  for (std::size_t i = 1; i < levels.size(); ++i) {
    const Level& low = levels[i - 1];
    const Level& high = levels[i];
    if (wanted <= high.*value) {
      const double share = (wanted - low.*value) / (high.*value - low.*value);
      return low.voltage_v + share * (high.voltage_v - low.voltage_v);
    }
  }
  return levels.back().voltage_v;
}

template <typename Level>
Level level_at_or_above(const std::vector<Level>& levels, double Level::*value, double wanted) {
  const auto it = std::find_if(levels.begin(), levels.end(),
                               [&](const Level& level) { return level.*value >= wanted * (1 - 1e-12); });
  return it == levels.end() ? levels.back() : *it;
}

}  // namespace dvfs_detail

inline double compute_voltage_at(const DvfsConfig& dvfs, double frequency_mhz) {
  return dvfs_detail::voltage_at(dvfs.compute_levels, &ComputeLevel::frequency_mhz, frequency_mhz,
                                 dvfs.compute_min_voltage_v);
}
inline ComputeLevel compute_level_at_or_above(const DvfsConfig& dvfs, double frequency_mhz) {
  return dvfs_detail::level_at_or_above(dvfs.compute_levels, &ComputeLevel::frequency_mhz, frequency_mhz);
}
inline MemoryLevel memory_level_at_or_above(const DvfsConfig& dvfs, double bandwidth_gbps) {
  return dvfs_detail::level_at_or_above(dvfs.memory_levels, &MemoryLevel::bandwidth_gbps, bandwidth_gbps);
}

// The level a domain runs at when `wanted` is asked for. Compute: the frequency itself with its
// interpolated voltage (continuous levels), or the lowest level of the table at or above it (quantised).
// Memory: always a level of the table, since a DRAM runs only at the data rates it is specified for.
inline ComputeLevel compute_level_for(const DvfsConfig& dvfs, double frequency_mhz, bool quantised) {
  return quantised ? compute_level_at_or_above(dvfs, frequency_mhz)
                   : ComputeLevel{frequency_mhz, compute_voltage_at(dvfs, frequency_mhz)};
}
inline MemoryLevel memory_level_for(const DvfsConfig& dvfs, double bandwidth_gbps) {
  return memory_level_at_or_above(dvfs, bandwidth_gbps);
}

}  // namespace ergon
