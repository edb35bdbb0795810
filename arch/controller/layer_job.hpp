#pragma once
// One layer as the controller executes it: its dataflow's plan (mapping, steps, DRAM encoding) and the
// DVFS levels it runs at.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "arch/controller/dram_address_map.hpp"
#include "arch/dram/dram.hpp"
#include "arch/operating_levels.hpp"
#include "dataflows/dataflow.hpp"
#include "dataflows/resident_traffic.hpp"

namespace ergon {

struct LayerJob {
  std::size_t layer_index = 0;
  std::shared_ptr<const LayerPlan> plan;
  OperatingLevels levels;
  LayerRegions dram;  // where its tensors live in DRAM
  LayerResidency residency;
};

// Per-layer results the controller measures from its modules.
struct LayerMeasurement {
  std::uint64_t start_cycle = 0;
  std::uint64_t end_cycle = 0;
  std::uint64_t stall_cycles = 0;
  std::uint64_t fill_stall_cycles = 0;   // waiting for the first pass's data: no array speed can hide it
  std::uint64_t drain_stall_cycles = 0;  // waiting for the last ofmap write-back
  std::uint64_t start_ps = 0;
  std::uint64_t end_ps = 0;
  std::uint64_t dvfs_switch_ps = 0;  // the compute clock stopped for a level change at the layer's start
  std::uint64_t passes = 0;
  std::uint64_t peak_active_pes = 0;
  CounterValues counters;              // every registered counter's count during the layer
  std::uint64_t dram_busy_cycles = 0;  // the DRAM data bus transferring this layer's data
  std::vector<std::uint64_t> busy_ps;  // every registered resource's busy time, in registry order
  // A DRAM model that counts its commands: its cumulative counts when the layer began and ended. power/
  // prices each and takes the difference, as the model's totals are priced.
  std::optional<DramCommandCounts> dram_commands_at_start, dram_commands_at_end;
  // Activations the GLB held: input bytes found on chip instead of read from DRAM, output bytes kept on
  // chip instead of written back (as the layer's DRAM encoding would have moved them).
  std::uint64_t input_on_chip_bytes = 0;
  std::uint64_t output_kept_bytes = 0;
  std::uint64_t weight_on_chip_bytes = 0;  // weights found in the GLB's cache instead of read
  // Cycle fidelity: the simulated output compared with the reference computation.
  bool output_checked = false;
  std::uint64_t output_mismatches = 0;
};

}  // namespace ergon
