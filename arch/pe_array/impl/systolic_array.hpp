#pragma once
// `pe_array.impl: systolic` at transaction level: rows x cols MAC units passing operands to their
// neighbours, a fold timed by the systolic dataflow's step timing (dataflows/systolic/systolic_step_timing.hpp).
#include "arch/pe_array/pe_array.hpp"
#include "dataflows/systolic/systolic_step_timing.hpp"

namespace ergon {

class SystolicArray : public IPeArray {
 public:
  SystolicArray(sc_core::sc_module_name name, const AcceleratorConfig& config);
  std::int64_t pe_count() const override { return timing_.rows * timing_.cols; }
  std::uint64_t pass_cycles(const PassTraffic& traffic, const INoc& noc, const IGlobalBuffer& glb) const override;
  void occupy(const PassTraffic& traffic, INoc& noc, IGlobalBuffer& glb) override;

 private:
  SystolicTiming timing_;  // the planner's, from the same config
};

}  // namespace ergon
