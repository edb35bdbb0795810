#include "arch/pe_array/impl/systolic_array.hpp"

#include <algorithm>

namespace ergon {

SystolicArray::SystolicArray(sc_core::sc_module_name name, std::int64_t rows, std::int64_t cols)
    : IPeArray(name), rows_(rows), cols_(cols) {}

std::uint64_t SystolicArray::pass_cycles(const PassTraffic& t, const INoc& /*noc*/, const IGlobalBuffer& glb) const {
  const auto rows = static_cast<std::uint64_t>(rows_), cols = static_cast<std::uint64_t>(cols_);
  const std::uint64_t preload = t.fill_cycles;  // the stationary operand shifts in first
  const std::uint64_t stream = t.compute_cycles + rows + cols - 2;
  // The buffers feed the array's edges directly (one word per edge row or column per cycle); their bank
  // ports carry the DRAM deposits and the finished outputs leaving for DRAM.
  return std::max(preload + stream, glb.access_cycles(t.ofmap_dram_words, t.deposited_words()));
}

}  // namespace ergon
