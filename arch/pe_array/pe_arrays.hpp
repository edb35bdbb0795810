#pragma once
// The PE arrays of each dataflow, registered under the dataflow's name (`pe_array.impl`) from the array's own
// file, as the memories and NoCs register in arch/components.hpp:
//   ERGON_REGISTER(PeArrayImpl, "name", PeArrayImpl{make_array, make_cycle_array})
// The dataflow's planning is its plug-in in dataflows/<name>/ (dataflows/registry.hpp).
#include <memory>
#include <string>
#include <vector>

#include "arch/accelerator_config.hpp"
#include "arch/clock.hpp"
#include "arch/glb/global_buffer.hpp"
#include "arch/noc/noc.hpp"
#include "arch/pe_array/cycle_array.hpp"
#include "arch/pe_array/pe_array.hpp"
#include "common/registry.hpp"

namespace ergon {

struct PeArrayImpl {
  std::unique_ptr<IPeArray> (*make_array)(const AcceleratorConfig& config);
  // The cycle-accurate array; it moves data through `noc` and `glb` and counts its MACs in `counters` (the
  // transaction-level array), so every module counts its own traffic in both fidelities.
  std::unique_ptr<ICycleArray> (*make_cycle_array)(const AcceleratorConfig& config, INoc& noc, IGlobalBuffer& glb,
                                                   IPeArray& counters, const ClockDomain& clock);
};

// The registered names, in alphabetical order (each a dataflow's).
std::vector<std::string> pe_array_impl_names();

std::unique_ptr<IPeArray> make_pe_array(const AcceleratorConfig& config);
std::unique_ptr<ICycleArray> make_cycle_array(const AcceleratorConfig& config, INoc& noc, IGlobalBuffer& glb,
                                              IPeArray& counters, const ClockDomain& clock);

}  // namespace ergon
