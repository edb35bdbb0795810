#pragma once
// What the controller's parts tell the run's observers: activity intervals (at the compute domain's level
// in force) and trace events, both in simulated time.
#include <systemc>

#include "arch/clock.hpp"
#include "arch/controller/activity.hpp"
#include "arch/operating_levels.hpp"

namespace ergon {

class RunEvents {
 public:
  RunEvents(const ClockDomain& clock, RunObservers observers, const OperatingLevels& initial)
      : clock_(clock), observers_(std::move(observers)), level_(initial) {}

  bool wants_activity() const { return static_cast<bool>(observers_.activity); }
  void set_compute_level(const OperatingLevels& level) {
    level_.frequency_mhz = level.frequency_mhz;
    level_.voltage_v = level.voltage_v;
  }
  void set_memory_level(const OperatingLevels& level) {
    level_.dram_bandwidth_gbps = level.dram_bandwidth_gbps;
    level_.memory_voltage_v = level.memory_voltage_v;
  }
  const OperatingLevels& compute_level() const { return level_; }
  std::uint64_t cycle_at(const sc_core::sc_time& time) const { return clock_.cycle_at(time); }

  // `counts` from `start` to now; false when not shown (no observer, or shorter than a cycle).
  bool emit(std::size_t layer_index, const sc_core::sc_time& start, const ActivityInterval& counts) const;
  // Sends an interval whose cycles are set (a cycle-accurate array's), adding its times and levels.
  bool emit_cycles(const ActivityInterval& cycles) const;
  // A stop of the compute clock from `stop` to now while its level changed.
  void emit_switch(std::size_t layer_index, const sc_core::sc_time& stop) const;
  void trace(TraceEvent::Kind kind, std::size_t layer_index, const sc_core::sc_time& start, const sc_core::sc_time& end,
             std::uint64_t bytes = 0) const;
  // A layer's span, with the activation bytes the GLB held for it.
  void trace_layer(std::size_t layer_index, const sc_core::sc_time& start, const sc_core::sc_time& end,
                   std::uint64_t input_bytes_on_chip, std::uint64_t output_bytes_kept) const;
  void layer_done(std::size_t layer_index, std::uint64_t end_cycle) const {
    if (observers_.layer_done) observers_.layer_done(layer_index, end_cycle);
  }
  bool interrupt_requested() const { return observers_.interrupt_requested && observers_.interrupt_requested(); }
  void step_done(std::size_t layer_index, std::uint64_t macs) const {
    if (observers_.step_done) observers_.step_done(layer_index, macs, clock_.cycle_at(sc_core::sc_time_stamp()));
  }
  // The levels in force (both domains), from now on.
  void trace_levels(std::size_t layer_index) const;

 private:
  bool send(ActivityInterval& interval) const;

  const ClockDomain& clock_;
  RunObservers observers_;
  OperatingLevels level_;
};

}  // namespace ergon
