#pragma once
// SystemC keeps simulated time as a 64-bit count of picoseconds (sc_time): about 213 days. A sum past it
// wraps without a word, and a run would report a short latency for a long one (docs/robustness.md).
// Every duration computed from cycles, bytes and clocks is checked here before it is added to a time.
#include <fmt/format.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <systemc>

namespace ergon {

struct SimulatedTimeOverflow : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline constexpr double kSimulatedTimeLimitPs = 18446744073709551615.0;  // 2^64 - 1 ps

[[noreturn]] inline void throw_simulated_time_overflow(const sc_core::sc_time& from, double duration_ps,
                                                       const std::string& source) {
  throw SimulatedTimeOverflow(fmt::format(
      "simulated time would pass SystemC's limit of 2^64 ps (213.5 days): {}, {:.3g} s long, would end at {:.4g} s; "
      "simulate fewer images (--batch) or layers, or raise the clock or bandwidth",
      source, duration_ps * 1e-12, from.to_seconds() + duration_ps * 1e-12));
}

// Throws SimulatedTimeOverflow when `duration_ps` after `from` passes the limit (or is not a number);
// `source()` (called only then) says what takes so long, naming the key that sets it.
template <typename Source>
void check_simulated_time(const sc_core::sc_time& from, double duration_ps, Source&& source) {
  if (!(static_cast<double>(from.value()) + duration_ps < kSimulatedTimeLimitPs)) {
    throw_simulated_time_overflow(from, duration_ps, source());
  }
}

}  // namespace ergon
