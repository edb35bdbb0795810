#include "arch/pe_array/pe_array.hpp"

#include <stdexcept>

#include "arch/pe_array/pe_arrays.hpp"

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

namespace {

const PeArrayImpl& pe_array_impl(const AcceleratorConfig& config) {
  const PeArrayImpl* found = Registry<PeArrayImpl>::instance().find(config.pe_array.impl);
  // The config loader has already checked the name against the dataflows; every dataflow registers its arrays
  // (tests/arch/pe_arrays_test.cpp).
  if (found == nullptr) throw std::logic_error("no PE array registered for '" + config.pe_array.impl + "'");
  return *found;
}

}  // namespace

std::vector<std::string> pe_array_impl_names() {
  return Registry<PeArrayImpl>::instance().names();
}

std::unique_ptr<IPeArray> make_pe_array(const AcceleratorConfig& config) {
  return pe_array_impl(config).make_array(config);
}

std::unique_ptr<ICycleArray> make_cycle_array(const AcceleratorConfig& config, INoc& noc, IGlobalBuffer& glb,
                                              IPeArray& counters, const ClockDomain& clock) {
  return pe_array_impl(config).make_cycle_array(config, noc, glb, counters, clock);
}

}  // namespace ergon
