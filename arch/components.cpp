#include "arch/components.hpp"

#include <algorithm>
#include <stdexcept>

namespace ergon {
namespace {

template <typename Impl>
const Impl& find(const std::string& impl, const char* what) {
  const Impl* found = Registry<Impl>::instance().find(impl);
  // The config loader has already checked the name; reaching this is a programming error.
  if (found == nullptr) throw std::logic_error(std::string("no ") + what + " implementation '" + impl + "'");
  return *found;
}

}  // namespace

std::vector<std::string> dram_impl_names() {
  return Registry<DramImpl>::instance().names();
}
std::vector<std::string> glb_impl_names() {
  return Registry<GlbImpl>::instance().names();
}
std::vector<std::string> noc_impl_names() {
  return Registry<NocImpl>::instance().names();
}
std::unique_ptr<IDram> make_dram(const DramConfig& config) {
  return find<DramImpl>(config.impl, "DRAM").make(config);
}
bool dram_reports_commands(const DramConfig& config) {
  return find<DramImpl>(config.impl, "DRAM").reports_commands;
}

std::unique_ptr<IGlobalBuffer> make_global_buffer(const GlbConfig& config, int word_bits) {
  return find<GlbImpl>(config.impl, "GLB").make(config, word_bits);
}

std::unique_ptr<INoc> make_noc(const NocConfig& config) {
  return find<NocImpl>(config.impl, "NoC").make(config);
}

namespace {

void register_in_report_order(CounterRegistry& registry, const PeArrayCounters& pe_array, const NocCounters& noc,
                              const GlbCounters& glb, const DramCounters& dram) {
  register_counters(registry, pe_array);
  register_counters(registry, noc);
  register_counters(registry, glb);
  register_counters(registry, dram);
}

}  // namespace

void register_module_counters(CounterRegistry& registry, const IPeArray& pe_array, const INoc& noc,
                              const IGlobalBuffer& glb, const IDram& dram) {
  register_in_report_order(registry, pe_array.counters(), noc.counters(), glb.counters(), dram.counters());
}

void register_module_busy(BusyRegistry& registry, const IPeArray& pe_array, const INoc& noc, const IGlobalBuffer& glb,
                          const IDram& dram) {
  register_busy(registry, pe_array.busy_cycles());
  register_busy(registry, glb.busy());
  register_busy(registry, noc.busy());
  register_busy(registry, dram.counters());
}

namespace {

// Every module registers the same counters but for the DRAM model's own statistics.
std::vector<CounterSpec> counter_specs_with(const std::vector<CounterSpec>& dram_statistics) {
  const PeArrayCounters pe_array;
  const NocCounters noc;
  const GlbCounters glb;
  DramCounters dram;
  dram.statistic_specs = dram_statistics;
  dram.statistics.assign(dram_statistics.size(), 0);
  CounterRegistry registry;
  register_in_report_order(registry, pe_array, noc, glb, dram);
  return registry.specs();
}

}  // namespace

std::vector<CounterSpec> module_counter_specs(const AcceleratorConfig& config) {
  return counter_specs_with(find<DramImpl>(config.dram.impl, "DRAM").statistics);
}

// Every DRAM model's statistics, each counter once.
std::vector<CounterSpec> every_module_counter_spec() {
  std::vector<CounterSpec> statistics;
  for (const auto& item : Registry<DramImpl>::instance().items()) {
    for (const CounterSpec& spec : item.entry.statistics) {
      const auto same = [&](const CounterSpec& known) { return known.name == spec.name; };
      if (std::none_of(statistics.begin(), statistics.end(), same)) statistics.push_back(spec);
    }
  }
  return counter_specs_with(statistics);
}

}  // namespace ergon
