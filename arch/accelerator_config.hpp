#pragma once
// The accelerator description read from YAML (docs/config.md). Plain data: the SystemC modules and
// the estimators read what they need from it.
#include <cstdint>
#include <string>
#include <vector>

namespace ergon {

struct ClockConfig {
  double frequency_mhz = 200.0;
  double voltage_v = 1.0;
};

struct RegisterFileConfig {  // per PE, in words of pe_array.word_bits
  std::int64_t filter_entries = 224;
  std::int64_t ifmap_entries = 12;
  std::int64_t psum_entries = 24;
};

struct PeArrayConfig {
  std::string impl = "row_stationary";
  std::string dataflow;  // systolic: os, ws or is
  std::int64_t rows = 12;
  std::int64_t cols = 14;
  int word_bits = 16;
  RegisterFileConfig rf;  // row stationary only
};

struct GlbConfig {
  std::string impl = "banked";
  double size_kib = 100.0;       // ifmap + psum
  double filter_size_kib = 0.0;  // a separate filter store; 0 = filters pass through the GLB
  double ofmap_size_kib = 0.0;   // systolic: the part of size_kib holding ofmaps; 0 = half
  std::int64_t banks = 1;
  std::int64_t bank_width_bits = 64;
  std::int64_t read_ports_per_bank = 1;
  std::int64_t write_ports_per_bank = 1;
};

struct NocConfig {  // words per cycle on each GLB <-> PE-array bus
  std::string impl = "multicast_bus";
  std::int64_t filter_bus_words = 4;
  std::int64_t ifmap_bus_words = 4;
  std::int64_t psum_bus_words = 4;
};

struct DramConfig {
  std::string preset = "custom";
  std::string impl = "simple";
  int word_bits = 16;
  double bandwidth_gbps = 0.0;  // GB/s (10^9 bytes per second)
  double latency_ns = 0.0;
  std::int64_t request_queue_depth = 16;
  double energy_pj_per_bit = 0.0;  // 0 = use the energy table's DRAM access energy
};

struct EnergyConfig {
  std::string table = "cnnergy_65nm";  // a shipped table name, or a path to a .yaml table
};

struct AcceleratorConfig {
  std::string name;
  std::string description;
  std::string file;
  ClockConfig clock;
  PeArrayConfig pe_array;
  GlbConfig glb;
  NocConfig noc;
  DramConfig dram;
  EnergyConfig energy;
};

// Loads, applies "key.path=value" overrides, and validates; every problem is an InputError.
AcceleratorConfig load_accelerator_config(const std::string& path, const std::vector<std::string>& overrides = {});

}  // namespace ergon
