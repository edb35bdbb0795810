#pragma once
// The module implementations, registered by name and chosen by the config's `impl:` keys. A new
// implementation adds one line to its registry in components.cpp.
#include <memory>
#include <string>
#include <vector>

#include "arch/accelerator_config.hpp"
#include "arch/dram/dram.hpp"
#include "arch/glb/global_buffer.hpp"
#include "arch/noc/noc.hpp"
#include "arch/pe_array/cycle_pe_array.hpp"
#include "arch/pe_array/cycle_systolic_array.hpp"
#include "arch/pe_array/pe_array.hpp"

namespace ergon {

std::vector<std::string> dram_impl_names();
std::vector<std::string> glb_impl_names();
std::vector<std::string> noc_impl_names();
std::vector<std::string> pe_array_impl_names();

std::unique_ptr<IDram> make_dram(const DramConfig& config);
std::unique_ptr<IGlobalBuffer> make_global_buffer(const GlbConfig& config, int word_bits);
std::unique_ptr<INoc> make_noc(const NocConfig& config);
std::unique_ptr<IPeArray> make_pe_array(const PeArrayConfig& config);
// Null when the implementation has no such cycle-accurate model.
std::unique_ptr<ICycleSystolicArray> make_cycle_systolic_array(const PeArrayConfig& config, const IGlobalBuffer& glb,
                                                               const ClockDomain& clock);
std::unique_ptr<ICyclePeArray> make_cycle_pe_array(const PeArrayConfig& config, const INoc& noc,
                                                   const IGlobalBuffer& glb, const ClockDomain& clock);

}  // namespace ergon
