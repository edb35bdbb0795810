#pragma once
// The bandwidth-based DRAM models' one check of simulated time (arch/simulated_time.hpp): a transfer
// that starts at `start` and lands `latency` after its last byte must end within SystemC's time limit.
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "arch/simulated_time.hpp"

namespace ergon {

inline void check_dram_time(const sc_core::sc_time& start, std::uint64_t bytes, double picoseconds_per_byte,
                            const sc_core::sc_time& latency) {
  const double duration_ps =
      std::ceil(static_cast<double>(bytes) * picoseconds_per_byte) + static_cast<double>(latency.value());
  check_simulated_time(start, duration_ps, [&] {
    return fmt::format(
        "a DRAM transfer of {} bytes at {:g} GB/s (dram.bandwidth_gbps, the memory's DVFS level or an operating "
        "point's ram_mhz)",
        bytes, 1e3 / picoseconds_per_byte);
  });
}

}  // namespace ergon
