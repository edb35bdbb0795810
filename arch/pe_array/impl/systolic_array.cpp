#include "arch/pe_array/impl/systolic_array.hpp"

#include <algorithm>

namespace ergon {

SystolicArray::SystolicArray(sc_core::sc_module_name name, std::int64_t rows, std::int64_t cols)
    : IPeArray(name), rows_(rows), cols_(cols) {}

// The stationary operand shifts in first, then the stream crosses the array with its skew.
std::uint64_t SystolicArray::array_cycles(const PassTraffic& t) const {
  return t.fill_cycles + t.compute_cycles + static_cast<std::uint64_t>(rows_ + cols_ - 2);
}

// The buffers feed the array's edges directly (one word per edge row or column per cycle); their bank
// ports carry the DRAM deposits and the finished outputs leaving for DRAM.
std::uint64_t SystolicArray::pass_cycles(const PassTraffic& t, const INoc& /*noc*/, const IGlobalBuffer& glb) const {
  return std::max(array_cycles(t), glb.access_cycles(t.ofmap_dram_words, t.deposited_words()));
}

void SystolicArray::occupy(const PassTraffic& t, INoc& /*noc*/, IGlobalBuffer& glb) {
  add_busy_cycles(array_cycles(t));
  glb.occupy_ports(glb.read_port_cycles(t.ofmap_dram_words), glb.write_port_cycles(t.deposited_words()));
}

}  // namespace ergon
