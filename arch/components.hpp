#pragma once
// The memory and interconnect implementations, chosen by the config's `impl:` keys. Each registers itself
// from its own .cpp, so adding one is that file plus its line in arch/CMakeLists.txt (docs/architecture.md):
//   ERGON_REGISTER(DramImpl, "name", DramImpl{[](const DramConfig& config) -> std::unique_ptr<IDram> {...}})
// PE arrays come with their dataflow (dataflows/registry.hpp).
#include <memory>
#include <string>
#include <vector>

#include "arch/accelerator_config.hpp"
#include "arch/dram/dram.hpp"
#include "arch/glb/global_buffer.hpp"
#include "arch/noc/noc.hpp"
#include "arch/pe_array/pe_array.hpp"
#include "common/counter_registry.hpp"
#include "common/registry.hpp"

namespace ergon {

// A DRAM model: its factory, the statistics it counts beyond bytes (they become counters, report fields
// and CSV columns) and whether it reports command counts (DramCounters::commands), which power/dram/
// prices in place of the per-bit figure.
struct DramImpl {
  std::unique_ptr<IDram> (*make)(const DramConfig& config);
  std::vector<CounterSpec> statistics;
  bool reports_commands = false;
};
struct GlbImpl {
  std::unique_ptr<IGlobalBuffer> (*make)(const GlbConfig& config, int word_bits);
};
struct NocImpl {
  std::unique_ptr<INoc> (*make)(const NocConfig& config);
};

// The registered names, in alphabetical order.
std::vector<std::string> dram_impl_names();
std::vector<std::string> glb_impl_names();
std::vector<std::string> noc_impl_names();

std::unique_ptr<IDram> make_dram(const DramConfig& config);
// Whether the chosen DRAM model reports command counts for power/ to price.
bool dram_reports_commands(const DramConfig& config);
std::unique_ptr<IGlobalBuffer> make_global_buffer(const GlbConfig& config, int word_bits);
std::unique_ptr<INoc> make_noc(const NocConfig& config);

// Registers every module's counters, in the order reports list them: PE array (mac, rf, pe), NoC, GLB,
// DRAM.
void register_module_counters(CounterRegistry& registry, const IPeArray& pe_array, const INoc& noc,
                              const IGlobalBuffer& glb, const IDram& dram);
// Registers every module's busy time, in the order ties between equally busy resources are broken: PE
// array, GLB ports, NoC buses, DRAM (the controller adds its fill/drain and DVFS switches after them).
void register_module_busy(BusyRegistry& registry, const IPeArray& pe_array, const INoc& noc, const IGlobalBuffer& glb,
                          const IDram& dram);
// The counters the modules of `config` register, without building them (for checks and reports made
// before a run, and for the mapper's prices).
std::vector<CounterSpec> module_counter_specs(const AcceleratorConfig& config);
// Every counter any config's modules may register.
std::vector<CounterSpec> every_module_counter_spec();

}  // namespace ergon
