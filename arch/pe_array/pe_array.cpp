#include "arch/pe_array/pe_array.hpp"

namespace ergon {

void register_counters(CounterRegistry& registry, const PeArrayCounters& c) {
  registry.add(Action::kMacCompute, c.computed_macs);
  registry.add(Action::kMacGated, c.gated_macs);
  registry.add(Action::kRfIfmapRead, c.rf.ifmap_reads);
  registry.add(Action::kRfIfmapWrite, c.rf.ifmap_writes);
  registry.add(Action::kRfFilterRead, c.rf.filter_reads);
  registry.add(Action::kRfFilterWrite, c.rf.filter_writes);
  registry.add(Action::kRfPsumRead, c.rf.psum_reads);
  registry.add(Action::kRfPsumWrite, c.rf.psum_writes);
  registry.add(Action::kPeBusyCycle, c.pe_busy_cycles);
}

void register_busy(BusyRegistry& registry, const std::uint64_t& array_busy_cycles) {
  registry.add({"array", ResourceKind::kArray, BusyUnit::kComputeCycles,
                "the PE array working on its own: MACs, pipeline fill and skew, psum ripple"},
               array_busy_cycles);
}

}  // namespace ergon
