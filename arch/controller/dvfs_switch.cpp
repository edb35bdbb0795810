#include "arch/controller/dvfs_switch.hpp"

namespace ergon {

DvfsSwitch::DvfsSwitch(ClockDomain& clock, IDram& dram, const DvfsSetup& setup, RunEvents& events)
    : clock_(clock),
      dram_(dram),
      setup_(setup),
      events_(events),
      dram_bandwidth_gbps_(setup.initial.dram_bandwidth_gbps) {}

std::uint64_t DvfsSwitch::switch_compute(const OperatingLevels& wanted, std::size_t layer_index) {
  const OperatingLevels& current = events_.compute_level();
  if (wanted.frequency_mhz == current.frequency_mhz && wanted.voltage_v == current.voltage_v) return 0;
  const sc_core::sc_time stop = sc_core::sc_time_stamp();
  if (setup_.compute_switch > sc_core::SC_ZERO_TIME) sc_core::wait(setup_.compute_switch);
  clock_.retime(stop, sc_core::sc_time_stamp(), sc_core::sc_time(1e6 / wanted.frequency_mhz, sc_core::SC_PS));
  events_.set_compute_level(wanted);
  events_.emit_switch(layer_index, stop);
  events_.trace(TraceEvent::Kind::kDvfsSwitch, layer_index, stop, sc_core::sc_time_stamp());
  events_.trace_levels(layer_index);
  return picoseconds(sc_core::sc_time_stamp()) - picoseconds(stop);
}

void DvfsSwitch::switch_memory(const OperatingLevels& wanted, std::size_t layer_index) {
  if (wanted.dram_bandwidth_gbps == dram_bandwidth_gbps_) return;
  dram_.change_bandwidth(wanted.dram_bandwidth_gbps, setup_.memory_switch);
  dram_bandwidth_gbps_ = wanted.dram_bandwidth_gbps;
  events_.set_memory_level(wanted);
  events_.trace_levels(layer_index);  // when the switch is requested; the bus follows once it is free
}

}  // namespace ergon
