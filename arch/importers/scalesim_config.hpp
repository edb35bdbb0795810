#pragma once
// Reads a SCALE-Sim v2 configuration (.cfg, INI style) and writes it as an Ergon accelerator config: a
// systolic array of ArrayHeight x ArrayWidth with the cfg's dataflow and buffers (1-byte words). SCALE-Sim
// has no clock: Ergon uses 1 GHz, so `Bandwidth` words per cycle become that many GB/s. `InterfaceBandwidth:
// CALC` (stall-free) becomes a DRAM too fast to stall (10^6 GB/s, no latency). Errors name file, line, key.
// Read as Python's configparser reads it for SCALE-Sim: keys case-insensitive, '#' and ';' comment lines,
// indented continuation lines, and a repeated section or key an error. SCALE-Sim v3's keys that Ergon does
// not model (sparsity, SRAM layout, Ramulator traces, request buffers, ...) are warned about by name.
#include <cstdint>
#include <string>
#include <vector>

namespace ergon {

struct ScaleSimConfig {
  std::string run_name;
  std::int64_t array_height = 0, array_width = 0;
  double ifmap_sram_kib = 0, filter_sram_kib = 0, ofmap_sram_kib = 0;
  std::string dataflow;  // os, ws or is
  double bandwidth_words_per_cycle = 0;
  bool calc_bandwidth = true;         // InterfaceBandwidth: CALC
  std::vector<std::string> warnings;  // "file:line: ..." for each key Ergon reads but does not model
};

ScaleSimConfig read_scalesim_config(const std::string& path);
std::string scalesim_config_yaml(const ScaleSimConfig& config, const std::string& source_path);

}  // namespace ergon
