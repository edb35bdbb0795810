#include "arch/noc/impl/multicast_bus_noc.hpp"

#include <algorithm>

namespace ergon {
namespace {
std::uint64_t ceil_div(std::uint64_t a, std::int64_t b) {
  return (a + static_cast<std::uint64_t>(b) - 1) / static_cast<std::uint64_t>(b);
}
}  // namespace

MulticastBusNoc::MulticastBusNoc(sc_core::sc_module_name name, const NocConfig& config) : INoc(name), config_(config) {}

std::uint64_t MulticastBusNoc::fill_cycles(std::uint64_t filter_words, std::uint64_t ifmap_words) const {
  return std::max(ceil_div(filter_words, config_.filter_bus_words), ceil_div(ifmap_words, config_.ifmap_bus_words));
}

std::uint64_t MulticastBusNoc::psum_cycles(std::uint64_t psum_words) const {
  return ceil_div(psum_words, config_.psum_bus_words);
}

void MulticastBusNoc::record(std::uint64_t filter_words, std::uint64_t ifmap_words, std::uint64_t psum_words,
                             std::uint64_t inter_pe_words) {
  counters_.filter_bus_words += filter_words;
  counters_.ifmap_bus_words += ifmap_words;
  counters_.psum_bus_words += psum_words;
  counters_.inter_pe_psum_words += inter_pe_words;
}

}  // namespace ergon
