#include "arch/components.hpp"

#include <functional>
#include <map>
#include <stdexcept>

#include "arch/dram/impl/simple_dram.hpp"
#include "arch/glb/impl/banked_global_buffer.hpp"
#include "arch/noc/impl/multicast_bus_noc.hpp"
#include "arch/pe_array/impl/row_stationary_array.hpp"
#include "arch/pe_array/impl/row_stationary_cycle_array.hpp"
#include "arch/pe_array/impl/systolic_array.hpp"
#include "arch/pe_array/impl/systolic_cycle_array.hpp"

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

struct PeArrayFactories {
  std::function<std::unique_ptr<IPeArray>(const PeArrayConfig&)> transaction_level;
  std::function<std::unique_ptr<ICyclePeArray>(const PeArrayConfig&, const INoc&, const IGlobalBuffer&,
                                               const ClockDomain&)>
      cycle_accurate;
};
const std::map<std::string, PeArrayFactories>& pe_array_registry() {
  static const std::map<std::string, PeArrayFactories> registry = {
      {"row_stationary",
       {[](const PeArrayConfig& config) { return std::make_unique<RowStationaryArray>("pe_array", config); },
        [](const PeArrayConfig& config, const INoc& noc, const IGlobalBuffer& glb, const ClockDomain& clock) {
          return std::make_unique<RowStationaryCycleArray>("cycle_pe_array", config, noc, glb, clock);
        }}},
      // Its cycle-accurate model has its own interface (make_cycle_systolic_array).
      {"systolic",
       {[](const PeArrayConfig& config) { return std::make_unique<SystolicArray>("pe_array", config); }, nullptr}},
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
std::vector<std::string> pe_array_impl_names() {
  return names_of(pe_array_registry());
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

std::unique_ptr<IPeArray> make_pe_array(const PeArrayConfig& config) {
  return find(pe_array_registry(), config.impl, "PE array").transaction_level(config);
}

std::unique_ptr<ICycleSystolicArray> make_cycle_systolic_array(const PeArrayConfig& config, const IGlobalBuffer& glb,
                                                               const ClockDomain& clock) {
  if (config.impl != "systolic") return nullptr;
  return std::make_unique<SystolicCycleArray>("cycle_systolic_array", glb, clock);
}

std::unique_ptr<ICyclePeArray> make_cycle_pe_array(const PeArrayConfig& config, const INoc& noc,
                                                   const IGlobalBuffer& glb, const ClockDomain& clock) {
  const auto& factory = find(pe_array_registry(), config.impl, "PE array").cycle_accurate;
  if (!factory) return nullptr;
  return factory(config, noc, glb, clock);
}

}  // namespace ergon
