// `pe_array.impl: systolic` at transaction level: rows x cols MAC units passing operands to their
// neighbours, a fold timed by the systolic dataflow's step timing (dataflows/systolic/systolic_step_timing.hpp).
#include <memory>

#include "arch/pe_array/impl/systolic_cycle_array.hpp"
#include "arch/pe_array/pe_array.hpp"
#include "arch/pe_array/pe_arrays.hpp"
#include "dataflows/systolic/systolic_step_timing.hpp"

namespace ergon {
namespace {

class SystolicArray : public IPeArray {
 public:
  SystolicArray(sc_core::sc_module_name name, const AcceleratorConfig& config);
  std::int64_t pe_count() const override { return timing_.rows * timing_.cols; }
  std::uint64_t step_cycles(const StepTraffic& traffic) const override;
  void occupy(const StepTraffic& traffic, INoc& noc, IGlobalBuffer& glb) override;

 private:
  SystolicTiming timing_;  // the planner's, from the same config
};

SystolicArray::SystolicArray(sc_core::sc_module_name name, const AcceleratorConfig& config)
    : IPeArray(name), timing_(systolic_timing(config)) {}

std::uint64_t SystolicArray::step_cycles(const StepTraffic& t) const {
  return systolic_step_cycles(t, timing_);
}

// The array for its shift-in, stream and skew; the bank ports for the DRAM deposits and the finished outputs
// leaving for DRAM.
void SystolicArray::occupy(const StepTraffic& t, INoc& /*noc*/, IGlobalBuffer& glb) {
  add_busy_cycles(systolic_array_cycles(t, timing_));
  glb.occupy_ports(glb.read_port_cycles(t.ofmap_dram_words), glb.write_port_cycles(t.deposited_words()));
}

std::unique_ptr<IPeArray> make_array(const AcceleratorConfig& config) {
  return std::make_unique<SystolicArray>("pe_array", config);
}

std::unique_ptr<ICycleArray> make_cycle_array(const AcceleratorConfig& /*config*/, INoc& noc, IGlobalBuffer& glb,
                                              IPeArray& counters, const ClockDomain& clock) {
  return std::make_unique<SystolicCycleArray>("cycle_systolic_array", noc, glb, counters, clock);
}

}  // namespace

ERGON_REGISTER(PeArrayImpl, "systolic", PeArrayImpl{make_array, make_cycle_array})

}  // namespace ergon
