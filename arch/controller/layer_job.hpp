#pragma once
// One layer as the controller executes it: its loop nest, schedule and how its data is stored in DRAM.
#include <cstddef>
#include <cstdint>

#include "dataflow/row_stationary/row_stationary_mapper.hpp"

namespace ergon {

struct LayerJob {
  std::size_t layer_index = 0;
  RowStationarySchedule schedule;
  double ifmap_density = 1.0;              // non-zero share of the stored ifmap (1 - sparsity)
  double ifmap_dram_bytes_per_word = 2.0;  // raw words, or run-length compressed
  double ofmap_dram_bytes_per_word = 2.0;
  double filter_dram_bytes_per_word = 2.0;
  int word_bits = 16;
};

// Per-layer results the controller measures from its modules.
struct LayerMeasurement {
  std::uint64_t start_cycle = 0;
  std::uint64_t end_cycle = 0;
  std::uint64_t stall_cycles = 0;
  std::uint64_t passes = 0;
  std::uint64_t peak_active_pes = 0;
  std::uint64_t pe_busy_cycles = 0;
  std::uint64_t macs = 0;
  std::uint64_t nonzero_macs = 0;
  std::uint64_t rf_accesses = 0;
  std::uint64_t glb_reads = 0;
  std::uint64_t glb_writes = 0;
  std::uint64_t noc_transfers = 0;
  std::uint64_t inter_pe_psum_words = 0;
  std::uint64_t dram_read_bytes = 0;
  std::uint64_t dram_write_bytes = 0;
  // Cycle fidelity: the simulated output compared with the reference computation.
  bool output_checked = false;
  std::uint64_t output_mismatches = 0;
};

}  // namespace ergon
