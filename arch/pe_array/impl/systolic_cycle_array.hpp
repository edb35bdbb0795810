#pragma once
// `pe_array.impl: systolic` at cycle fidelity (see ICycleSystolicArray). One SC_METHOD steps the whole
// rows x cols array each cycle over flat register arrays.
#include <cstdint>
#include <vector>

#include "arch/glb/global_buffer.hpp"
#include "arch/pe_array/cycle_systolic_array.hpp"

namespace ergon {

class SystolicCycleArray : public ICycleSystolicArray {
 public:
  SystolicCycleArray(sc_core::sc_module_name name, const IGlobalBuffer& glb, const ClockDomain& clock);
  void start(const SystolicSchedule& schedule, const SystolicFold& fold, const PassTraffic& traffic,
             LayerTensors& tensors) override;
  const sc_core::sc_event& done_event() const override { return done_event_; }
  const MeasuredPass& measured() const override { return measured_; }

 private:
  void step();
  void preload_cycle();
  void stream_cycle();
  void stream_output_stationary();
  void stream_through_stationary();
  std::int32_t operand_a(std::int64_t pixel, std::int64_t k) const;   // im2col ifmap value
  std::int32_t operand_b(std::int64_t k, std::int64_t filter) const;  // filter value
  void write_output(std::int64_t pixel, std::int64_t filter, std::int32_t value, bool accumulate);

  const IGlobalBuffer& glb_;
  const ClockDomain& clock_;
  sc_core::sc_event start_event_, done_event_;
  const SystolicSchedule* schedule_ = nullptr;
  SystolicFold fold_;
  LayerTensors* tensors_ = nullptr;
  std::int64_t rows_ = 0, cols_ = 0, used_rows_ = 0, used_cols_ = 0, temporal_ = 0;
  std::int64_t cycle_ = 0, preload_left_ = 0, stream_length_ = 0;
  std::uint64_t glb_reads_left_ = 0, glb_writes_left_ = 0;
  std::vector<std::int32_t> a_, b_, acc_, stationary_;  // per PE
  std::vector<std::uint8_t> a_valid_, b_valid_;
  MeasuredPass measured_;
};

}  // namespace ergon
