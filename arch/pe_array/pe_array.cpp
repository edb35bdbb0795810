#include "arch/pe_array/pe_array.hpp"

namespace ergon {

void register_counters(CounterRegistry& registry, const PeArrayCounters& c) {
  registry.add({"mac.compute", "MACs", "computed_macs", "MACs on a non-zero operand (pooling comparisons included)"},
               c.computed_macs);
  registry.add({"mac.gated", "MACs", "gated_macs", "MACs skipped for a zero or padding operand"}, c.gated_macs);
  const struct {
    const char* name;
    const char* column;
    const char* description;
    const std::uint64_t& source;
  } rf[] = {
      {"rf.ifmap_read", "rf_ifmap_reads", "ifmap operands read from the PEs' register files", c.rf.ifmap_reads},
      {"rf.ifmap_write", "rf_ifmap_writes", "ifmap words written into the register files", c.rf.ifmap_writes},
      {"rf.filter_read", "rf_filter_reads", "filter operands read from the register files", c.rf.filter_reads},
      {"rf.filter_write", "rf_filter_writes", "filter words written into the register files", c.rf.filter_writes},
      {"rf.psum_read", "rf_psum_reads", "partial sums read to accumulate", c.rf.psum_reads},
      {"rf.psum_write", "rf_psum_writes", "partial sums written back", c.rf.psum_writes},
  };
  for (const auto& counter : rf) {
    registry.add({counter.name, "words", counter.column, counter.description}, counter.source);
  }
  registry.add({"pe.busy_cycle", "PE-cycles", "pe_busy_cycles", "PE-cycles spent on MACs (utilization)", false},
               c.pe_busy_cycles);
}

void register_busy(BusyRegistry& registry, const std::uint64_t& array_busy_cycles) {
  registry.add({"array", ResourceKind::kArray, BusyUnit::kComputeCycles,
                "the PE array working on its own: MACs, pipeline fill and skew, psum ripple"},
               array_busy_cycles);
}

}  // namespace ergon
