#pragma once
// The DVFS levels a layer runs at (docs/dvfs.md); the nominal ones under race to idle.
namespace ergon {

struct OperatingLevels {
  double frequency_mhz = 0;  // compute domain: PE array, register files, NoC, GLB
  double voltage_v = 0;
  double dram_bandwidth_gbps = 0;  // memory domain
  double memory_voltage_v = 0;
};

inline bool operator==(const OperatingLevels& a, const OperatingLevels& b) {
  return a.frequency_mhz == b.frequency_mhz && a.voltage_v == b.voltage_v &&
         a.dram_bandwidth_gbps == b.dram_bandwidth_gbps && a.memory_voltage_v == b.memory_voltage_v;
}

}  // namespace ergon
