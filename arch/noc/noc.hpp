#pragma once
// The on-chip network: separate filter, ifmap and psum buses from the GLB to the PE array (each word
// multicast to every PE that needs it), and the vertical links that carry psums between neighbouring
// PEs of a column.
#include <cstdint>
#include <systemc>

#include "arch/accelerator_config.hpp"

namespace ergon {

struct NocCounters {
  std::uint64_t filter_bus_words = 0;
  std::uint64_t ifmap_bus_words = 0;
  std::uint64_t psum_bus_words = 0;
  std::uint64_t inter_pe_psum_words = 0;
  std::uint64_t transfers() const { return filter_bus_words + ifmap_bus_words + psum_bus_words + inter_pe_psum_words; }
};

class Noc : public sc_core::sc_module {
 public:
  Noc(sc_core::sc_module_name name, const NocConfig& config);

  // Cycles to deliver filters and ifmaps into the RFs (the buses work in parallel).
  std::uint64_t fill_cycles(std::uint64_t filter_words, std::uint64_t ifmap_words) const;
  // Cycles the psum bus needs for a pass's psum traffic.
  std::uint64_t psum_cycles(std::uint64_t psum_words) const;
  void record(std::uint64_t filter_words, std::uint64_t ifmap_words, std::uint64_t psum_words,
              std::uint64_t inter_pe_words);
  const NocCounters& counters() const { return counters_; }

 private:
  NocConfig config_;
  NocCounters counters_;
};

}  // namespace ergon
