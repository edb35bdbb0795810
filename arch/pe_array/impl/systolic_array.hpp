#pragma once
// `pe_array.impl: systolic` at transaction level: rows x cols MAC units passing operands to their
// neighbours. A fold streams T steps through the array; the skew to fill and drain it adds rows + cols - 2
// cycles, and a weight- or input-stationary fold first shifts its stationary operand in (rows cycles):
// output stationary T + R + C - 2, weight/input stationary 2R + C + T - 2 (as SCALE-Sim v2 counts them).
// The buffers' bank ports, busy with DRAM deposits and outputs leaving for DRAM, can only slow this down.
#include "arch/pe_array/pe_array.hpp"

namespace ergon {

class SystolicArray : public IPeArray {
 public:
  SystolicArray(sc_core::sc_module_name name, std::int64_t rows, std::int64_t cols);
  std::int64_t pe_count() const override { return rows_ * cols_; }
  std::uint64_t pass_cycles(const PassTraffic& traffic, const INoc& noc, const IGlobalBuffer& glb) const override;
  void occupy(const PassTraffic& traffic, INoc& noc, IGlobalBuffer& glb) override;

 private:
  std::uint64_t array_cycles(const PassTraffic& traffic) const;
  std::int64_t rows_, cols_;
};

}  // namespace ergon
