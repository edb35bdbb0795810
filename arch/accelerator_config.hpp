#pragma once
// The accelerator description read from YAML (docs/config.md). Plain data: the SystemC modules and
// the estimators read what they need from it. Each key is declared once, beside the part it configures, in
// a `*_keys.cpp` file (arch/config_keys.hpp); the initialisers below are the defaults those declarations give.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <any>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "arch/dram/banked/page_policy.hpp"
#include "arch/operating_levels.hpp"

namespace ergon {

// Limits the config loader enforces, shared with the importers that write configs (SCALE-Sim .cfg) so that
// what an importer accepts loads.
constexpr std::int64_t kMaxArraySide = 1 << 16;  // pe_array.rows, cols
constexpr double kMaxGlbKib = 1 << 30;           // glb.size_kib, filter_size_kib, ofmap_size_kib
constexpr std::int64_t kMaxDvfsLevels = 4096;    // a domain's level table: dvfs.*.steps, step_mhz
constexpr double kMinDramBandwidthGbps = 0.001, kMaxDramBandwidthGbps = 1e6;

// Words each systolic buffer must hold: one operand wavefront of the array (a word per row or column),
// double-buffered. A smaller buffer could not feed the array at all.
inline std::int64_t systolic_wavefront_words(std::int64_t rows, std::int64_t cols) {
  return 2 * std::max(rows, cols);
}

// `pe_array.dataflow` of a systolic array (dataflows/systolic/): which operand stays in the PEs.
enum class SystolicDataflow { kOutputStationary, kWeightStationary, kInputStationary };

struct ClockConfig {
  double frequency_mhz = 200.0;
  double voltage_v = 1.0;
};

struct RegisterFileConfig {  // per PE, in words of pe_array.word_bits
  std::int64_t filter_entries = 224;
  std::int64_t ifmap_entries = 12;
  std::int64_t psum_entries = 24;
  bool filter_double_buffered = false;  // the filter RF holds the next pass's filters while one computes
};

// How a systolic array runs a grouped (depthwise) convolution: group after group, or several groups at once
// as one dense convolution whose filters are block-diagonal (docs/dataflow.md), or each layer's better one.
enum class DepthwiseMode { kSerial, kChannelGroups, kAuto };

struct PeArrayConfig {
  std::string impl = "row_stationary";  // a registered dataflow plug-in
  // Systolic: the dataflow of every layer; nullopt (`auto`): each layer's own, chosen by mapper.objective.
  std::optional<SystolicDataflow> dataflow = SystolicDataflow::kOutputStationary;
  std::int64_t rows = 12;
  std::int64_t cols = 14;
  int word_bits = 16;
  int accumulator_bits = 0;  // systolic: a partial sum's width in the ofmap buffer and DRAM; 0 = word_bits
  int psum_bits() const { return accumulator_bits > 0 ? accumulator_bits : word_bits; }
  int weight_bits = 0;  // systolic: a weight's width in the filter buffer and DRAM (4-bit weights); 0 = word_bits
  int weight_width() const { return weight_bits > 0 ? weight_bits : word_bits; }
  DepthwiseMode depthwise = DepthwiseMode::kSerial;  // systolic
  bool pipelined_folds = false;  // systolic: the PEs double-buffer the stationary operand (docs/dataflow.md)
  RegisterFileConfig rf;         // row stationary only
};

// Words of `word_bits` in `kib` KiB.
inline std::int64_t words_of_kib(double kib, int word_bits) {
  return static_cast<std::int64_t>(kib * 1024.0 * 8.0 / word_bits);
}

// How the buffers fetch operands from DRAM and when the data counts as arrived (docs/config.md, "Operand
// traffic"). The first of each is the physical model; the others are SCALE-Sim v2's assumptions
// (docs/scalesim-reference.md), offered on arrays whose dataflow streams operands.
enum class OperandFetch { kTensors, kIm2col };       // each tile once, or the im2col operand matrices
enum class FirstFill { kTimed, kFree };              // free: a layer's first half-buffer of each stream
enum class Prefetch { kDoubleBuffered, kRunAhead };  // run ahead: streams run ahead of the array
// Which operand blocks a systolic buffer keeps between folds: what its capacity holds (furthest next use
// evicted first), or only the previous fold's (SCALE-Sim).
enum class FoldReuse { kCapacity, kPreviousFold };
// Whether a layer's output stays in the GLB for its consumers (docs/simulator.md, "Activations kept on chip").
enum class KeepActivations { kNever, kWhenFits };

struct GlbConfig {
  std::string impl = "banked";   // a registered GLB model
  double size_kib = 100.0;       // ifmap + psum
  double filter_size_kib = 0.0;  // a separate filter store; 0 = filters pass through the GLB
  double ofmap_size_kib = 0.0;   // systolic: the part of size_kib holding ofmaps; 0 = half
  bool unified = false;          // systolic: size_kib holds ifmaps, filters and ofmaps, split per layer
  std::int64_t banks = 1;
  std::int64_t bank_width_bits = 64;
  std::int64_t read_ports_per_bank = 1;
  std::int64_t write_ports_per_bank = 1;
  OperandFetch operand_fetch = OperandFetch::kTensors;
  FirstFill first_fill = FirstFill::kTimed;
  Prefetch prefetch = Prefetch::kDoubleBuffered;
  FoldReuse fold_reuse = FoldReuse::kCapacity;
  KeepActivations keep_activations = KeepActivations::kNever;
  KeepActivations keep_weights = KeepActivations::kNever;  // across inferences (docs/simulator.md)
  bool keeps_tensors() const {
    return keep_activations == KeepActivations::kWhenFits || keep_weights == KeepActivations::kWhenFits;
  }
  // Words every bank's `ports_per_bank` ports move per cycle together (at least one).
  std::int64_t port_words_per_cycle(std::int64_t ports_per_bank, int word_bits) const {
    return std::max<std::int64_t>(banks * ports_per_bank * bank_width_bits / word_bits, 1);
  }
};

struct NocConfig {                     // words per cycle on each GLB <-> PE-array bus
  std::string impl = "multicast_bus";  // a registered NoC model
  std::int64_t filter_bus_words = 4;
  std::int64_t ifmap_bus_words = 4;
  std::int64_t psum_read_bus_words = 4;   // GLB -> array: partial sums to accumulate onto
  std::int64_t psum_write_bus_words = 4;  // array -> GLB: partial sums and results
};

struct DramConfig {
  std::string preset = "custom";
  std::string impl = "simple";  // a registered DRAM model
  int word_bits = 16;
  double bandwidth_gbps = 0.0;  // GB/s (10^9 bytes per second)
  double latency_ns = 0.0;
  std::int64_t request_queue_depth = 16;
  double energy_pj_per_bit = 0.0;  // 0 = use the energy table's DRAM access energy
  // `impl: banked` only (docs/dram.md):
  PagePolicy page_policy = PagePolicy::kOpen;
  std::string address_mapping = "RoBaRaCoBgCh";  // fields most significant first
};

// One legal operating level of a DVFS domain. The compute domain's levels are clock frequencies; the
// memory domain's are DRAM bandwidths (its I/O clock times its bus width).
struct ComputeLevel {
  double frequency_mhz = 0;
  double voltage_v = 0;
};
struct MemoryLevel {
  double bandwidth_gbps = 0;
  double voltage_v = 0;
};

// Clock and voltage domains (docs/dvfs.md): levels change at layer boundaries; while a domain switches
// it stalls for `switch_overhead_us`. Without a `levels` table, the compute domain offers every
// `step_mhz` up to clock.frequency_mhz with voltage proportional to frequency (ARADA's assumption) down to
// `min_voltage_v`, and the memory domain the data rates its DRAM preset can be clocked at (or `steps`
// equal bandwidth steps), at the DRAM's fixed supply. The highest level is always the nominal one.
struct DvfsConfig {
  std::vector<ComputeLevel> compute_levels;  // ascending; filled from the defaults when not given
  double compute_step_mhz = 50;
  double compute_switch_overhead_us = 10;
  // The lowest supply the compute domain's logic and SRAM run at: no level may go below it, and the
  // default table's V ~ f stops at it. 0 removes the floor (ARADA's idealisation, seed 002 Sec. 4.3.4).
  double compute_min_voltage_v = 0.6;
  std::vector<MemoryLevel> memory_levels;  // ascending
  std::int64_t memory_steps = 0;           // > 0: equal bandwidth steps instead of the preset's data rates
  double memory_voltage_v = 1.1;           // the DRAM supply (LPDDR4's VDD2); only ratios price energy
  double memory_switch_overhead_us = 10;
};

// `mapper.objective`: what a mapper minimises (dataflows/access_prices.hpp ranks by it).
enum class MapperObjective { kEnergy, kLatency, kEnergyDelay };

// The spelling of `mapper.objective`.
inline const char* mapper_objective_name(MapperObjective objective) {
  switch (objective) {
    case MapperObjective::kLatency: return "latency";
    case MapperObjective::kEnergyDelay: return "edp";
    case MapperObjective::kEnergy: break;
  }
  return "energy";
}

// How the mapper ranks a layer's candidate mappings (docs/dataflow.md).
struct MapperConfig {
  MapperObjective objective = MapperObjective::kEnergy;
};

struct EnergyConfig {
  std::string table = "cnnergy_65nm";  // a shipped table name, or a path to a .yaml table
};

// The sequencer that issues each step's tile commands (arch/controller/command_queue.hpp).
struct CommandsConfig {
  std::int64_t issue_cycles = 0;  // compute-clock cycles to issue one command; 0: issue is free
  // Commands each engine's queue holds; 0: unbounded.
  std::int64_t load_queue_depth = 0;
  std::int64_t compute_queue_depth = 0;
  std::int64_t store_queue_depth = 0;
};

struct AcceleratorConfig {
  std::string name;
  std::string description;
  std::string file;
  ClockConfig clock;
  PeArrayConfig pe_array;
  GlbConfig glb;
  NocConfig noc;
  CommandsConfig commands;
  DramConfig dram;
  DvfsConfig dvfs;
  EnergyConfig energy;
  MapperConfig mapper;
  // Sections a study declares and reads itself (studies/<study>/), by section name:
  // the loader keeps their values here and arch/ never looks inside.
  std::map<std::string, std::any> study_sections;
};

// Loads, applies "key.path=value" overrides, and validates; every problem is an InputError.
AcceleratorConfig load_accelerator_config(const std::string& path, const std::vector<std::string>& overrides = {});
// The same from a document already parsed from `path` (a sweep parses its config once); `document` is
// left as it was.
AcceleratorConfig load_accelerator_config(const YAML::Node& document, const std::string& path,
                                          const std::vector<std::string>& overrides);

// The config's nominal clock, voltage, DRAM bandwidth and memory voltage (race to idle's levels).
OperatingLevels nominal_levels(const AcceleratorConfig& config);

}  // namespace ergon
