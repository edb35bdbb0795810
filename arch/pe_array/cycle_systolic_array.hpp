#pragma once
// The systolic array at cycle fidelity: every cycle, operands shift one PE right or down and every PE
// with two valid operands performs its MAC on real values. A fold's cycles emerge from the wavefront
// crossing the physical array (and, for weight/input stationary, from shifting the stationary operand
// in); its buffer accesses are the values that enter and leave the array.
#include <systemc>

#include "arch/pe_array/cycle_pe_array.hpp"
#include "dataflow/systolic/systolic_schedule.hpp"

namespace ergon {

class ICycleSystolicArray : public sc_core::sc_module {
 public:
  using sc_core::sc_module::sc_module;
  // Runs one fold from the current time; `traffic` is the fold's transaction-level traffic (its DRAM
  // deposits and completed outputs, which the buffers account for). Outputs go to `tensors.ofmap`.
  virtual void start(const SystolicSchedule& schedule, const SystolicFold& fold, const PassTraffic& traffic,
                     LayerTensors& tensors) = 0;
  virtual const sc_core::sc_event& done_event() const = 0;
  virtual const MeasuredPass& measured() const = 0;
};

}  // namespace ergon
