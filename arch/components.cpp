#include "arch/components.hpp"

#include <functional>
#include <map>
#include <stdexcept>

#include "arch/dram/banked/dram_specs.hpp"
#include "arch/dram/impl/banked_dram.hpp"
#include "arch/dram/impl/simple_dram.hpp"
#include "arch/dram/impl/streams_dram.hpp"
#include "arch/glb/impl/banked_global_buffer.hpp"
#include "arch/noc/impl/multicast_bus_noc.hpp"

namespace ergon {
namespace {

template <typename Factory>
std::vector<std::string> names_of(const std::map<std::string, Factory>& registry) {
  std::vector<std::string> names;
  for (const auto& entry : registry) names.push_back(entry.first);
  return names;
}

template <typename Factory>
const Factory& find(const std::map<std::string, Factory>& registry, const std::string& impl, const char* what) {
  const auto found = registry.find(impl);
  // The config loader has already checked the name; reaching this is a programming error.
  if (found == registry.end()) throw std::logic_error(std::string("no ") + what + " implementation '" + impl + "'");
  return found->second;
}

using DramFactory = std::function<std::unique_ptr<IDram>(const DramConfig&)>;
const std::map<std::string, DramFactory>& dram_registry() {
  static const std::map<std::string, DramFactory> registry = {
      {"simple", [](const DramConfig& config) { return std::make_unique<SimpleDram>("dram", config); }},
      {"streams", [](const DramConfig& config) { return std::make_unique<StreamsDram>("dram", config); }},
      {"banked",
       [](const DramConfig& config) -> std::unique_ptr<IDram> {
         // The config loader has checked that the preset has a bank-level description.
         return std::make_unique<BankedDram>("dram", config, *find_dram_spec(config.preset));
       }},
  };
  return registry;
}

using GlbFactory = std::function<std::unique_ptr<IGlobalBuffer>(const GlbConfig&, int)>;
const std::map<std::string, GlbFactory>& glb_registry() {
  static const std::map<std::string, GlbFactory> registry = {
      {"banked", [](const GlbConfig& config,
                    int word_bits) { return std::make_unique<BankedGlobalBuffer>("glb", config, word_bits); }},
  };
  return registry;
}

using NocFactory = std::function<std::unique_ptr<INoc>(const NocConfig&)>;
const std::map<std::string, NocFactory>& noc_registry() {
  static const std::map<std::string, NocFactory> registry = {
      {"multicast_bus", [](const NocConfig& config) { return std::make_unique<MulticastBusNoc>("noc", config); }},
  };
  return registry;
}

}  // namespace

std::vector<std::string> dram_impl_names() {
  return names_of(dram_registry());
}
std::vector<std::string> glb_impl_names() {
  return names_of(glb_registry());
}
std::vector<std::string> noc_impl_names() {
  return names_of(noc_registry());
}
std::unique_ptr<IDram> make_dram(const DramConfig& config) {
  return find(dram_registry(), config.impl, "DRAM")(config);
}

std::unique_ptr<IGlobalBuffer> make_global_buffer(const GlbConfig& config, int word_bits) {
  return find(glb_registry(), config.impl, "GLB")(config, word_bits);
}

std::unique_ptr<INoc> make_noc(const NocConfig& config) {
  return find(noc_registry(), config.impl, "NoC")(config);
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

// Every module registers the same counters but for a bank-level DRAM's statistics.
std::vector<CounterSpec> counter_specs_with(bool bank_model) {
  const PeArrayCounters pe_array;
  const NocCounters noc;
  const GlbCounters glb;
  DramCounters dram;
  dram.has_bank_model = bank_model;
  CounterRegistry registry;
  register_in_report_order(registry, pe_array, noc, glb, dram);
  return registry.specs();
}

}  // namespace

std::vector<CounterSpec> module_counter_specs(const AcceleratorConfig& config) {
  return counter_specs_with(config.dram.impl == "banked");
}

std::vector<CounterSpec> every_module_counter_spec() {
  return counter_specs_with(true);
}

}  // namespace ergon
