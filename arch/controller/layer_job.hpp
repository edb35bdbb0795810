#pragma once
// One layer as the controller executes it: its loop nest, schedule and how its data is stored in DRAM.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "arch/operating_levels.hpp"
#include "dataflow/elementwise.hpp"
#include "dataflow/row_stationary/pass_traffic.hpp"
#include "dataflow/row_stationary/row_stationary_mapper.hpp"
#include "dataflow/systolic/systolic_schedule.hpp"

namespace ergon {

// How a layer's tensors are stored in DRAM. Filters and the network's input are raw words; other
// activations are run-length coded (Eyeriss, CNNergy): a 64-bit word holds 3 non-zero 16-bit values (5 at
// 8 bit) with their zero-run lengths. Padding is never stored.
struct DramEncoding {
  int word_bits = 16;
  bool ifmap_raw = false;
  bool compressed_activations = true;  // false: every tensor is stored raw (systolic arrays)
  double ifmap_density = 1.0;          // expected non-zero share of stored ifmap values (1 - sparsity)
  double ofmap_density = 1.0;

  std::uint64_t raw_bytes(std::uint64_t words) const { return words * static_cast<std::uint64_t>(word_bits) / 8; }
  std::uint64_t rlc_bytes(std::uint64_t nonzero_values) const {
    const std::uint64_t per_word = word_bits == 8 ? 5 : 3;
    return (nonzero_values + per_word - 1) / per_word * 8;
  }
  static std::uint64_t expected(std::uint64_t values, double density) {
    return static_cast<std::uint64_t>(std::llround(static_cast<double>(values) * density));
  }
  // Bytes of an ifmap tile with `stored` values of which `nonzero` are non-zero.
  std::uint64_t ifmap_bytes(std::uint64_t stored, std::uint64_t nonzero) const {
    return ifmap_raw || !compressed_activations ? raw_bytes(stored) : rlc_bytes(nonzero);
  }
  std::uint64_t ofmap_bytes(std::uint64_t words) const {
    return compressed_activations ? rlc_bytes(expected(words, ofmap_density)) : raw_bytes(words);
  }
};

// A layer is either a row-stationary schedule on the array or a stream of element-wise passes.
struct LayerJob {
  std::size_t layer_index = 0;
  std::optional<RowStationarySchedule> schedule;
  std::optional<ElementwiseSchedule> elementwise;
  std::optional<SystolicSchedule> systolic;
  DramEncoding encoding;
  OperatingLevels levels;
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
  std::uint64_t pe_busy_cycles = 0;
  std::uint64_t macs = 0;
  std::uint64_t nonzero_macs = 0;
  std::uint64_t rf_accesses = 0;
  std::uint64_t glb_reads = 0;
  std::uint64_t glb_writes = 0;
  std::uint64_t noc_transfers = 0;
  std::uint64_t filter_bus_words = 0;  // into the array: filter words (systolic: filter buffer reads)
  std::uint64_t ifmap_bus_words = 0;   // ifmap words (systolic: ifmap buffer reads)
  std::uint64_t psum_bus_words = 0;    // psums and results (systolic: ofmap buffer writes)
  std::uint64_t inter_pe_psum_words = 0;
  std::uint64_t dram_read_bytes = 0;
  std::uint64_t dram_write_bytes = 0;
  std::uint64_t dram_busy_cycles = 0;  // the DRAM data bus transferring this layer's data
  // Cycle fidelity: the simulated output compared with the reference computation.
  bool output_checked = false;
  std::uint64_t output_mismatches = 0;
};

}  // namespace ergon
