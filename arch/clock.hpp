#pragma once
// Simulated time in clock cycles: the cycle a time falls in, counting a partial cycle as begun.
#include <cmath>
#include <cstdint>
#include <systemc>

namespace ergon {

inline std::uint64_t cycle_at(const sc_core::sc_time& time, const sc_core::sc_time& clock_period) {
  return static_cast<std::uint64_t>(std::ceil(time / clock_period - 1e-9));
}

}  // namespace ergon
