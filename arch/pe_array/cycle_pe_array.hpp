#pragma once
// The cycle-accurate row-stationary PE array. One clocked process steps every PE each cycle over plain
// arrays (never a process per PE): first the fill, where filter and ifmap words cross the NoC buses
// from the GLB into the PEs' register files, then the compute, where every active PE performs one
// MAC per cycle on real 16/8-bit values, psums ripple up the columns and stream back to the GLB.
// Every count is taken as the values move; they must equal the transaction-level formulas.
#include <cstdint>
#include <memory>
#include <systemc>
#include <vector>

#include "arch/accelerator_config.hpp"
#include "arch/controller/activity.hpp"
#include "dataflow/layer_tensors.hpp"
#include "dataflow/row_stationary/pass_traffic.hpp"

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

class CyclePeArray : public sc_core::sc_module {
 public:
  CyclePeArray(sc_core::sc_module_name name, const AcceleratorConfig& config, sc_core::sc_time clock_period);

  // Runs one pass from the current time; done_event() fires when its psums are back in the GLB.
  // `activity` receives the pass's per-cycle activity (runs of identical cycles merged), attributed to
  // `layer_index`; `dram_bytes` (the pass's DRAM traffic still to be shown) goes to its last cycle.
  void start(const LoopNest& nest, const RowStationaryTiling& tiling, const RowStationaryPass& pass,
             const StagedPass& staged, LayerTensors& tensors, const ActivitySink& activity, std::size_t layer_index,
             std::uint64_t dram_bytes);
  const sc_core::sc_event& done_event() const { return done_event_; }
  const MeasuredPass& measured() const { return measured_; }
  std::uint64_t pe_count() const { return pe_count_; }

 private:
  enum class Phase { kIdle, kFill, kCompute, kDone };
  struct SetState {  // the PEs of one set step in lockstep through (image, column, filter, channel, tap)
    std::int64_t channel_set = 0, filter_set = 0, channels = 0, filters = 0;
    std::int64_t image = 0, column = 0, filter = 0, channel = 0, tap = 0;
    std::uint64_t remaining = 0;
  };

  void step();
  void record_cycle(const MeasuredPass& before, std::uint64_t active_pes, bool last);
  void flush_activity();
  bool fill_cycle();
  bool compute_cycle();
  void run_set_cycle(SetState& set);
  void finish_pass();
  void prepare_pass();
  std::size_t pe_index(std::int64_t filter_set, std::int64_t channel_set, std::int64_t row, std::int64_t col) const;

  PeArrayConfig array_;
  NocConfig noc_;
  std::uint64_t glb_read_words_per_cycle_;
  std::uint64_t glb_write_words_per_cycle_;
  sc_core::sc_time clock_period_;
  std::uint64_t pe_count_;
  sc_core::sc_event start_event_;
  sc_core::sc_event done_event_;

  // The pass in flight.
  Phase phase_ = Phase::kIdle;
  LoopNest nest_;
  RowStationaryTiling tiling_;
  RowStationaryPass pass_;
  StagedPass staged_;
  LayerTensors* tensors_ = nullptr;
  std::int64_t n_ = 0, m_ = 0, c_ = 0, e_ = 0, r_ = 0, s_ = 0, f_ = 0, input_rows_ = 0, input_cols_ = 0;
  std::int64_t channel_sets_used_ = 0, filter_sets_used_ = 0;
  std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> ifmap_row_receivers_;  // (row, col) per input row
  std::uint64_t filter_words_left_ = 0, ifmap_words_left_ = 0, deposit_words_left_ = 0;
  std::uint64_t filter_cursor_ = 0, ifmap_cursor_ = 0;
  std::vector<SetState> sets_;
  std::uint64_t ripple_cycles_left_ = 0;
  std::uint64_t psum_bus_left_ = 0, psum_glb_reads_left_ = 0, psum_glb_writes_left_ = 0;
  MeasuredPass measured_;
  const ActivitySink* activity_ = nullptr;
  std::size_t layer_index_ = 0;
  std::uint64_t dram_bytes_ = 0;
  ActivityInterval run_;  // the current run of identical cycles, as per-cycle values
  std::uint64_t run_cycles_ = 0;

  // Register files, one slice per PE (flat arrays), and the GLB's psum tile.
  std::size_t filter_stride_ = 0, ifmap_stride_ = 0, psum_stride_ = 0;
  std::vector<std::int16_t> filter_rf_;
  std::vector<std::int16_t> ifmap_rf_;
  std::vector<std::int32_t> psum_rf_;
  std::vector<std::int32_t> glb_psums_;  // [n][m][e][F]
};

}  // namespace ergon
