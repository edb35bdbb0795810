#include "arch/controller/run_events.hpp"

namespace ergon {

bool RunEvents::emit(std::size_t layer_index, const sc_core::sc_time& start, const ActivityInterval& counts) const {
  if (!observers_.activity) return false;
  ActivityInterval interval = counts;
  interval.layer_index = layer_index;
  interval.start_cycle = cycle_at(start);
  interval.end_cycle = cycle_at(sc_core::sc_time_stamp());
  interval.start_ps = picoseconds(start);
  interval.end_ps = picoseconds(sc_core::sc_time_stamp());
  return send(interval);
}

bool RunEvents::emit_cycles(const ActivityInterval& cycles) const {
  if (!observers_.activity) return false;
  ActivityInterval interval = cycles;
  interval.start_ps = picoseconds(clock_.time_of(interval.start_cycle));
  interval.end_ps = picoseconds(clock_.time_of(interval.end_cycle));
  return send(interval);
}

bool RunEvents::send(ActivityInterval& interval) const {
  if (interval.end_cycle <= interval.start_cycle) return false;  // shorter than a cycle
  interval.frequency_mhz = level_.frequency_mhz;
  interval.voltage_v = level_.voltage_v;
  interval.dram_bandwidth_gbps = level_.dram_bandwidth_gbps;
  observers_.activity(interval);
  return true;
}

void RunEvents::emit_switch(std::size_t layer_index, const sc_core::sc_time& stop) const {
  if (!observers_.activity || sc_core::sc_time_stamp() <= stop) return;
  ActivityInterval interval;
  interval.layer_index = layer_index;
  interval.start_cycle = interval.end_cycle = cycle_at(stop);
  interval.start_ps = picoseconds(stop);
  interval.end_ps = picoseconds(sc_core::sc_time_stamp());
  interval.dvfs_switch = true;
  interval.frequency_mhz = level_.frequency_mhz;
  interval.voltage_v = level_.voltage_v;
  interval.dram_bandwidth_gbps = level_.dram_bandwidth_gbps;
  observers_.activity(interval);
}

void RunEvents::trace(TraceEvent::Kind kind, std::size_t layer_index, const sc_core::sc_time& start,
                      const sc_core::sc_time& end, std::uint64_t bytes) const {
  if (!observers_.trace) return;
  observers_.trace({kind, layer_index, picoseconds(start), picoseconds(end), bytes, 0, 0, 0, 0, 0});
}

void RunEvents::trace_layer(std::size_t layer_index, const sc_core::sc_time& start, const sc_core::sc_time& end,
                            std::uint64_t input_bytes_on_chip, std::uint64_t output_bytes_kept) const {
  if (!observers_.trace) return;
  observers_.trace({TraceEvent::Kind::kLayer, layer_index, picoseconds(start), picoseconds(end), 0, 0, 0, 0,
                    input_bytes_on_chip, output_bytes_kept});
}

void RunEvents::trace_levels(std::size_t layer_index) const {
  if (!observers_.trace) return;
  const std::uint64_t now = picoseconds(sc_core::sc_time_stamp());
  observers_.trace({TraceEvent::Kind::kLevels, layer_index, now, now, 0, level_.frequency_mhz, level_.voltage_v,
                    level_.dram_bandwidth_gbps, 0, 0});
}

}  // namespace ergon
