#pragma once
// The memory and interconnect implementations, registered by name and chosen by the config's `impl:` keys.
// A new implementation adds one line to its registry in components.cpp. PE arrays come with their dataflow
// (arch/dataflows/registry.hpp).
#include <memory>
#include <string>
#include <vector>

#include "arch/accelerator_config.hpp"
#include "arch/dram/dram.hpp"
#include "arch/glb/global_buffer.hpp"
#include "arch/noc/noc.hpp"

namespace ergon {

std::vector<std::string> dram_impl_names();
std::vector<std::string> glb_impl_names();
std::vector<std::string> noc_impl_names();

std::unique_ptr<IDram> make_dram(const DramConfig& config);
std::unique_ptr<IGlobalBuffer> make_global_buffer(const GlbConfig& config, int word_bits);
std::unique_ptr<INoc> make_noc(const NocConfig& config);

}  // namespace ergon
