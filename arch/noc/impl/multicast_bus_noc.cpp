#include "arch/noc/impl/multicast_bus_noc.hpp"

#include "arch/components.hpp"

namespace ergon {

MulticastBusNoc::MulticastBusNoc(sc_core::sc_module_name name, const NocConfig& config) : INoc(name), config_(config) {}

void MulticastBusNoc::record(std::uint64_t filter_words, std::uint64_t ifmap_words, std::uint64_t psum_words,
                             std::uint64_t pe_hop_words, const TensorCounts& pe_hop_shares) {
  counters_.filter_bus_words += filter_words;
  counters_.ifmap_bus_words += ifmap_words;
  counters_.psum_bus_words += psum_words;
  counters_.pe_hop_words += pe_hop_words;
  counters_.pe_hop_shares += pe_hop_shares;
}

ERGON_REGISTER(NocImpl, "multicast_bus", NocImpl{[](const NocConfig& config) -> std::unique_ptr<INoc> {
                 return std::make_unique<MulticastBusNoc>("noc", config);
               }})

}  // namespace ergon
