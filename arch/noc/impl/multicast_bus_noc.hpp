#pragma once
// `noc.impl: multicast_bus`: separate filter, ifmap, psum-read and psum-write buses of configurable width from the GLB
// to the array, each word multicast to every PE that needs it (Eyeriss's global input network), and vertical links
// carrying psums between neighbouring PEs of a column.
#include "arch/accelerator_config.hpp"
#include "arch/noc/noc.hpp"

namespace ergon {

class MulticastBusNoc : public INoc {
 public:
  MulticastBusNoc(sc_core::sc_module_name name, const NocConfig& config);
  std::uint64_t filter_words_per_cycle() const override { return static_cast<std::uint64_t>(config_.filter_bus_words); }
  std::uint64_t ifmap_words_per_cycle() const override { return static_cast<std::uint64_t>(config_.ifmap_bus_words); }
  std::uint64_t psum_read_words_per_cycle() const override {
    return static_cast<std::uint64_t>(config_.psum_read_bus_words);
  }
  std::uint64_t psum_write_words_per_cycle() const override {
    return static_cast<std::uint64_t>(config_.psum_write_bus_words);
  }
  void record(std::uint64_t filter_words, std::uint64_t ifmap_words, std::uint64_t psum_words,
              std::uint64_t pe_hop_words, const TensorCounts& pe_hop_shares) override;
  const NocCounters& counters() const override { return counters_; }

 private:
  NocConfig config_;
  NocCounters counters_;
};

}  // namespace ergon
