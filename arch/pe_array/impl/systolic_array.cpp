#include "arch/pe_array/impl/systolic_array.hpp"

#include <algorithm>

namespace ergon {

SystolicArray::SystolicArray(sc_core::sc_module_name name, const PeArrayConfig& config)
    : IPeArray(name), config_(config) {}

std::uint64_t SystolicArray::pass_cycles(const PassTraffic& t, const INoc& /*noc*/, const IGlobalBuffer& glb) const {
  const auto rows = static_cast<std::uint64_t>(config_.rows), cols = static_cast<std::uint64_t>(config_.cols);
  const std::uint64_t preload = config_.dataflow == "os" ? 0 : rows;  // the stationary operand shifts in
  const std::uint64_t stream = t.compute_cycles + rows + cols - 2;
  // The buffers feed the array's edges directly (one word per edge row or column per cycle); their bank
  // ports carry the DRAM deposits and the finished outputs leaving for DRAM.
  return std::max(preload + stream, glb.access_cycles(t.ofmap_dram_words, t.deposited_words()));
}

}  // namespace ergon
