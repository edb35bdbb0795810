#pragma once
// The PE array at transaction level: how long a step takes and what it did. Implementations:
// arch/pe_array/impl/ (the cycle-accurate counterpart is ICycleArray), one per dataflow.
#include <cstdint>
#include <systemc>

#include "arch/glb/global_buffer.hpp"
#include "arch/noc/noc.hpp"
#include "common/counter_registry.hpp"
#include "dataflows/step_traffic.hpp"

namespace ergon {

struct PeArrayCounters {
  std::uint64_t computed_macs = 0;  // MACs on a non-zero ifmap operand
  std::uint64_t gated_macs = 0;     // MACs on a zero (or padding) operand: the multiplier is gated
  RfAccesses rf;
  std::uint64_t pe_busy_cycles = 0;  // PE-cycles spent on MACs: one MAC per PE per cycle
};

// mac.compute, mac.gated, rf.<operand>_read and _write, pe.busy_cycle.
void register_counters(CounterRegistry& registry, const PeArrayCounters& counters);
// array: the cycles the array worked on its own (MACs, pipeline fill and skew, psum ripple).
void register_busy(BusyRegistry& registry, const std::uint64_t& array_busy_cycles);

class IPeArray : public sc_core::sc_module {
 public:
  using sc_core::sc_module::sc_module;
  virtual std::int64_t pe_count() const = 0;
  // Cycles a step takes (the dataflow's step timing at the array's config: the buses and ports that feed it).
  virtual std::uint64_t step_cycles(const StepTraffic& traffic) const = 0;
  // Runs a step at transaction level: returns its cycles; the GLB, the NoC and the array count its traffic
  // and the busy time it gave each of them.
  std::uint64_t execute(const StepTraffic& t, INoc& noc, IGlobalBuffer& glb) {
    glb.record(t.glb_reads, t.glb_writes, glb_read_shares(t), glb_write_shares(t));
    noc.record(t.filter_bus_words, t.ifmap_bus_words, t.psum_bus_words, t.pe_hop_words, t.pe_hop_shares);
    record(t.macs, t.nonzero_macs, t.rf);
    occupy(t, noc, glb);
    return step_cycles(t);
  }
  // Charges the array, the NoC buses and the GLB ports the busy cycles step_cycles() gives each of them in a
  // step: each at most the step's cycles.
  virtual void occupy(const StepTraffic& traffic, INoc& noc, IGlobalBuffer& glb) = 0;
  void add_busy_cycles(std::uint64_t cycles) { busy_cycles_ += cycles; }
  const std::uint64_t& busy_cycles() const { return busy_cycles_; }
  // Counting is the same for every array: one MAC occupies one PE for one cycle.
  void record(std::uint64_t macs, std::uint64_t nonzero_macs, const RfAccesses& rf) {
    counters_.computed_macs += nonzero_macs;
    counters_.gated_macs += macs - nonzero_macs;
    counters_.rf += rf;
    counters_.pe_busy_cycles += macs;
  }
  const PeArrayCounters& counters() const { return counters_; }

 private:
  PeArrayCounters counters_;
  std::uint64_t busy_cycles_ = 0;  // the array working on its own: its `array` busy time
};

}  // namespace ergon
