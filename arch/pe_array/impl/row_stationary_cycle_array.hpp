#pragma once
// `pe_array.impl: row_stationary` at cycle fidelity. One clocked process steps every PE each cycle over plain
// arrays (never a process per PE). First the preload: filter words (unless the filter RF is double-buffered)
// and the first window of ifmap columns cross the NoC buses from the GLB into the PEs' register files.
// Then the compute: ifmap columns keep streaming in, never further ahead of the slowest set of PEs than
// the ifmap RF holds; a set performs one MAC per PE per cycle on real 16/8-bit values once its window
// has arrived; psums ripple up the columns and travel to and from the GLB on their own buses.
// Every count is taken as the values move; they must equal the transaction-level formulas.
#include <cstdint>
#include <vector>

#include "arch/accelerator_config.hpp"
#include "arch/clock.hpp"
#include "arch/glb/global_buffer.hpp"
#include "arch/noc/noc.hpp"
#include "arch/pe_array/cycle_array.hpp"
#include "arch/pe_array/pe_array.hpp"
#include "dataflows/row_stationary/row_stationary_dataflow.hpp"
#include "dataflows/step_traffic.hpp"

namespace ergon {

class RowStationaryCycleArray : public ICycleArray {
 public:
  // Bus widths and GLB ports come from the NoC and GLB modules, which count what the array moves through
  // them; `counters` (the transaction-level array) counts its MACs and RF accesses.
  RowStationaryCycleArray(sc_core::sc_module_name name, const PeArrayConfig& config, INoc& noc, IGlobalBuffer& glb,
                          IPeArray& counters, const ClockDomain& clock);

  void start(const LayerPlan& plan, const LayerStep& step, LayerTensors& tensors, const ActivitySink& activity,
             std::size_t layer_index, std::uint64_t dram_bytes) override;
  const sc_core::sc_event& done_event() const override { return done_event_; }
  const MeasuredStep& measured() const override { return measured_; }

 private:
  enum class Phase { kIdle, kFill, kCompute, kDone };
  struct SetState {  // the PEs of one set step in lockstep through (image, column, filter, channel, tap)
    std::int64_t group = 0, channel_set = 0, filter_set = 0, channels = 0, filters = 0;
    std::int64_t image = 0, column = 0, filter = 0, channel = 0, tap = 0;
    std::uint64_t remaining = 0;
  };

  void step();
  void record_cycle(const MeasuredStep& before, std::uint64_t active_pes, bool last);
  void flush_activity();
  bool fill_cycle();
  void start_compute();
  bool compute_cycle();
  bool window_arrived(const SetState& set) const;
  std::uint64_t ifmap_stream_limit() const;
  void store_filters(std::uint64_t words);
  void store_ifmaps(std::uint64_t words);
  void run_set_cycle(SetState& set);
  void finish_step();
  void record_in_modules();
  void prepare_step();
  std::size_t pe_index(std::int64_t group, std::int64_t filter_set, std::int64_t channel_set, std::int64_t row,
                       std::int64_t col) const;
  void finish_output(std::int64_t group, std::int64_t filter_set, std::int64_t col, std::int64_t image,
                     std::int64_t column, std::int64_t j);

  std::uint64_t filter_bus_words_;
  std::uint64_t ifmap_bus_words_;
  std::uint64_t psum_read_bus_words_;
  std::uint64_t psum_write_bus_words_;
  std::uint64_t glb_read_words_per_cycle_;
  std::uint64_t glb_write_words_per_cycle_;
  std::int64_t ifmap_rf_words_;
  bool filter_rf_double_buffered_;
  INoc& noc_;
  IGlobalBuffer& glb_;
  IPeArray& counters_;
  const ClockDomain& clock_;
  sc_core::sc_event start_event_;
  sc_core::sc_event done_event_;

  // The step in flight.
  Phase phase_ = Phase::kIdle;
  LoopNest nest_;
  RowStationaryTiling tiling_;
  RowStationaryStep step_;
  StagedStep staged_;
  std::uint64_t spilled_psum_words_ = 0;  // read out of the GLB by the loader for DRAM, counted with the step
  // The step's GLB accesses by tensor, as its traffic plans them (the measured totals must agree: the
  // per-tensor report test checks they add up).
  TensorCounts glb_read_shares_, glb_write_shares_;
  LayerTensors* tensors_ = nullptr;
  std::int64_t g_ = 0, n_ = 0, m_ = 0, c_ = 0, e_ = 0, r_ = 0, s_ = 0, f_ = 0, input_rows_ = 0, input_cols_ = 0;
  std::int64_t channel_sets_used_ = 0, filter_sets_used_ = 0;
  std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> ifmap_row_receivers_;  // (row, col) per input row
  // Preload: filter words and ifmap words still to send before the compute starts.
  std::uint64_t filter_words_left_ = 0, ifmap_words_left_ = 0;
  std::uint64_t filter_cursor_ = 0, ifmap_cursor_ = 0;  // words sent so far
  // The ifmap stream: its shape, words in all, and the columns an RF holds (window plus lookahead).
  IfmapStream stream_;
  std::uint64_t ifmap_words_ = 0, rf_columns_ = 0;
  std::uint64_t streamed_filter_words_left_ = 0;  // double-buffered filter RF: sent during the compute
  std::vector<SetState> sets_;
  std::uint64_t active_pes_ = 0;  // this cycle
  std::uint64_t ripple_cycles_left_ = 0;
  std::uint64_t psum_read_bus_left_ = 0, psum_write_bus_left_ = 0, glb_reads_left_ = 0, glb_writes_left_ = 0;
  MeasuredStep measured_;
  const ActivitySink* activity_ = nullptr;
  std::size_t layer_index_ = 0;
  std::uint64_t dram_bytes_ = 0;
  ActivityInterval run_;  // the current run of identical cycles, as per-cycle values
  std::uint64_t run_cycles_ = 0;

  // Register files, one slice per PE (flat arrays).
  std::size_t filter_stride_ = 0, ifmap_stride_ = 0, psum_stride_ = 0;
  std::vector<std::int16_t> filter_rf_;
  std::vector<std::int16_t> ifmap_rf_;
  std::vector<std::int32_t> psum_rf_;
};

}  // namespace ergon
