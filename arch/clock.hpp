#pragma once
// Simulated time in clock cycles. A ClockDomain counts the cycles its clock has ticked; under DVFS its
// period changes at layer boundaries, with the clock stopped while the level switches.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <systemc>

#include "arch/simulated_time.hpp"

namespace ergon {

// The cycle a time falls in on a clock that started at time 0, counting a partial cycle as begun.
inline std::uint64_t cycle_at(const sc_core::sc_time& time, const sc_core::sc_time& clock_period) {
  return static_cast<std::uint64_t>(std::ceil(time / clock_period - 1e-9));
}

inline std::uint64_t picoseconds(const sc_core::sc_time& time) {
  return static_cast<std::uint64_t>(time.to_seconds() * 1e12 + 0.5);
}

class ClockDomain {
 public:
  explicit ClockDomain(sc_core::sc_time period) : period_(period) {}

  const sc_core::sc_time& period() const { return period_; }
  double frequency_mhz() const { return 1e-6 / period_.to_seconds(); }

  // Cycles ticked by `time`; while the clock is stopped for a switch, the count stands still.
  std::uint64_t cycle_at(const sc_core::sc_time& time) const {
    if (time <= restart_time_) return restart_cycle_;
    return restart_cycle_ + ergon::cycle_at(time - restart_time_, period_);
  }

  // How long `cycles` cycles take from now; a run that would pass SystemC's time limit is refused.
  sc_core::sc_time duration_of(std::uint64_t cycles) const {
    const double duration_ps = static_cast<double>(period_.value()) * static_cast<double>(cycles);
    check_simulated_time(sc_core::sc_time_stamp(), duration_ps, [&] {
      return fmt::format("{} cycles at {:g} MHz (clock.frequency_mhz, or the layer's DVFS level)", cycles,
                         frequency_mhz());
    });
    return period_ * static_cast<double>(cycles);
  }

  // When cycle `cycle` (counted since the last restart) begins.
  sc_core::sc_time time_of(std::uint64_t cycle) const {
    return restart_time_ + period_ * static_cast<double>(cycle - std::min(cycle, restart_cycle_));
  }

  // Stops the clock at `stop` and restarts it at `restart` with `period`.
  void retime(const sc_core::sc_time& stop, const sc_core::sc_time& restart, const sc_core::sc_time& period) {
    restart_cycle_ = cycle_at(stop);
    restart_time_ = restart;
    period_ = period;
  }

 private:
  sc_core::sc_time period_;
  sc_core::sc_time restart_time_ = sc_core::SC_ZERO_TIME;
  std::uint64_t restart_cycle_ = 0;
};

}  // namespace ergon
