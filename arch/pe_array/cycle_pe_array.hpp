#pragma once
// The PE array at cycle fidelity: steps every cycle on real values and counts what it moves; the
// counts must equal the transaction-level formulas. Implementations: arch/pe_array/impl/.
#include <cstdint>
#include <memory>
#include <systemc>
#include <vector>

#include "arch/clock.hpp"
#include "arch/controller/activity.hpp"
#include "dataflow/layer_tensors.hpp"
#include "dataflow/row_stationary/row_stationary_schedule.hpp"

namespace ergon {

// What the loader staged in the GLB for one pass.
struct StagedPass {
  std::shared_ptr<const std::vector<std::int16_t>> filter_tile;  // [m][c][r][s]; null: the PEs still hold it
  std::shared_ptr<const std::vector<std::int16_t>> ifmap_tile;   // [n][c][input_rows][input_cols], padded
  std::uint64_t deposited_words = 0;                             // written into the GLB from DRAM
};

struct MeasuredPass {
  std::uint64_t macs = 0;
  std::uint64_t nonzero_macs = 0;
  std::uint64_t rf_accesses = 0;
  std::uint64_t filter_bus_words = 0;
  std::uint64_t ifmap_bus_words = 0;
  std::uint64_t psum_bus_words = 0;
  std::uint64_t inter_pe_psum_words = 0;
  std::uint64_t glb_reads = 0;
  std::uint64_t glb_writes = 0;
  std::uint64_t ofmap_words = 0;
  std::uint64_t active_pes = 0;
  std::uint64_t pe_busy_cycles = 0;  // PE-cycles spent on MACs
  std::uint64_t cycles = 0;
};

class ICyclePeArray : public sc_core::sc_module {
 public:
  using sc_core::sc_module::sc_module;
  // Runs one pass from the current time; done_event() fires when its psums are back in the GLB.
  // `activity` receives the pass's per-cycle activity (runs of identical cycles merged), attributed to
  // `layer_index`; `dram_bytes` (the pass's DRAM traffic still to be shown) goes to its last cycle.
  virtual void start(const LoopNest& nest, const RowStationaryTiling& tiling, const RowStationaryPass& pass,
                     const StagedPass& staged, LayerTensors& tensors, const ActivitySink& activity,
                     std::size_t layer_index, std::uint64_t dram_bytes) = 0;
  virtual const sc_core::sc_event& done_event() const = 0;
  virtual const MeasuredPass& measured() const = 0;
};

}  // namespace ergon
