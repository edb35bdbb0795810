#pragma once
// `pe_array.impl: systolic` at cycle fidelity: every cycle, operands shift one PE right or down and every PE
// with two valid operands performs its MAC on real values. A fold's cycles emerge from the wavefront
// crossing the physical array (and, for weight/input stationary, from shifting the stationary operand in);
// its buffer accesses are the values that enter and leave the array. One SC_METHOD steps the whole
// rows x cols array each cycle over flat register arrays.
#include <cstdint>
#include <vector>

#include "arch/clock.hpp"
#include "arch/glb/global_buffer.hpp"
#include "arch/noc/noc.hpp"
#include "arch/pe_array/cycle_array.hpp"
#include "arch/pe_array/pe_array.hpp"
#include "dataflows/systolic/systolic_dataflow.hpp"

namespace ergon {

class SystolicCycleArray : public ICycleArray {
 public:
  // The buffers (GLB), the operand paths (NoC) and `counters` (the transaction-level array) count what a
  // fold moves and computes.
  SystolicCycleArray(sc_core::sc_module_name name, INoc& noc, IGlobalBuffer& glb, IPeArray& counters,
                     const ClockDomain& clock);
  // Outputs go to `tensors.ofmap`; the step's traffic gives its DRAM deposits and completed outputs,
  // which the buffers account for.
  void start(const LayerPlan& plan, const LayerStep& step, LayerTensors& tensors, const ActivitySink& activity,
             std::size_t layer_index, std::uint64_t dram_bytes) override;
  const sc_core::sc_event& done_event() const override { return done_event_; }
  const MeasuredStep& measured() const override { return measured_; }

 private:
  void step();
  void preload_cycle();
  void stream_cycle();
  void stream_output_stationary();
  void stream_through_stationary();
  std::int32_t operand_a(std::int64_t pixel, std::int64_t k) const;   // im2col ifmap value
  std::int32_t operand_b(std::int64_t k, std::int64_t filter) const;  // filter value
  void write_output(std::int64_t pixel, std::int64_t filter, std::int32_t value, bool accumulate);
  void finish_fold();

  INoc& noc_;
  IGlobalBuffer& glb_;
  IPeArray& counters_;
  const ClockDomain& clock_;
  const ActivitySink* activity_ = nullptr;
  std::size_t layer_index_ = 0;
  std::uint64_t dram_bytes_ = 0, start_cycle_ = 0;
  sc_core::sc_event start_event_, done_event_;
  const SystolicSchedule* schedule_ = nullptr;
  SystolicFold fold_;
  // The fold's GLB accesses by tensor, as its traffic plans them (the measured totals must agree: the
  // per-tensor report test checks they add up).
  TensorCounts glb_read_shares_, glb_write_shares_;
  LayerTensors* tensors_ = nullptr;
  std::int64_t rows_ = 0, cols_ = 0, used_rows_ = 0, used_cols_ = 0, temporal_ = 0;
  std::int64_t stream_begin_ = 0;  // the fold's first streamed step
  std::int64_t cycle_ = 0, preload_left_ = 0, stream_length_ = 0;
  std::uint64_t glb_reads_left_ = 0, glb_writes_left_ = 0;
  std::vector<std::int32_t> a_, b_, acc_, stationary_;  // per PE
  std::vector<std::uint8_t> a_valid_, b_valid_;
  MeasuredStep measured_;
};

}  // namespace ergon
