// `pe_array.impl: row_stationary` at transaction level: rows x cols PEs with filter, ifmap and psum
// register files and one MAC unit each. A step preloads filters and the first ifmap window, then streams
// ifmap columns while the PEs compute, as far ahead as the ifmap RF holds (dataflows/row_stationary/step_timing.hpp).
#include <memory>

#include "arch/accelerator_config.hpp"
#include "arch/pe_array/impl/row_stationary_cycle_array.hpp"
#include "arch/pe_array/pe_array.hpp"
#include "arch/pe_array/pe_arrays.hpp"
#include "dataflows/row_stationary/step_timing.hpp"

namespace ergon {
namespace {

class RowStationaryArray : public IPeArray {
 public:
  RowStationaryArray(sc_core::sc_module_name name, const AcceleratorConfig& config);
  std::int64_t pe_count() const override { return config_.rows * config_.cols; }
  std::uint64_t step_cycles(const StepTraffic& traffic) const override;
  void occupy(const StepTraffic& traffic, INoc& noc, IGlobalBuffer& glb) override;

 private:
  PeArrayConfig config_;
  ArrayTiming timing_;  // the mapper's, from the same config
};

RowStationaryArray::RowStationaryArray(sc_core::sc_module_name name, const AcceleratorConfig& config)
    : IPeArray(name), config_(config.pe_array), timing_(array_timing(config)) {}

std::uint64_t RowStationaryArray::step_cycles(const StepTraffic& t) const {
  return ergon::step_cycles(t, timing_);
}

// Each bus and port for the words its timing carries over it (step_timing: filters and ifmaps, preloaded
// or streamed, over their buses and the GLB's read ports; psums both ways; finished outputs leaving and
// DRAM deposits through the GLB's ports); the array for its MACs and the psum ripple.
void RowStationaryArray::occupy(const StepTraffic& t, INoc& noc, IGlobalBuffer& glb) {
  add_busy_cycles(t.compute_cycles + t.accumulation_latency_cycles);
  NocBusy buses;
  buses.filter_bus_cycles = INoc::bus_cycles(t.filter_bus_words, noc.filter_words_per_cycle());
  buses.ifmap_bus_cycles = INoc::bus_cycles(t.ifmap_bus_words, noc.ifmap_words_per_cycle());
  buses.psum_read_bus_cycles = INoc::bus_cycles(t.psum_glb_reads, noc.psum_read_words_per_cycle());
  buses.psum_write_bus_cycles = INoc::bus_cycles(t.psum_glb_writes, noc.psum_write_words_per_cycle());
  noc.occupy(buses);
  glb.occupy_ports(glb.read_port_cycles(t.filter_bus_words + t.ifmap_bus_words + t.psum_glb_reads + t.ofmap_dram_words),
                   glb.write_port_cycles(t.psum_glb_writes + t.deposited_words()));
}

std::unique_ptr<IPeArray> make_array(const AcceleratorConfig& config) {
  return std::make_unique<RowStationaryArray>("pe_array", config);
}

std::unique_ptr<ICycleArray> make_cycle_array(const AcceleratorConfig& config, INoc& noc, IGlobalBuffer& glb,
                                              IPeArray& counters, const ClockDomain& clock) {
  return std::make_unique<RowStationaryCycleArray>("cycle_pe_array", config.pe_array, noc, glb, counters, clock);
}

}  // namespace

ERGON_REGISTER(PeArrayImpl, "row_stationary", PeArrayImpl{make_array, make_cycle_array})

}  // namespace ergon
