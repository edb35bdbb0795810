#pragma once
// The on-chip network between the GLB and the PE array, and between PEs. Implementations:
// arch/noc/impl/.
#include <cstdint>
#include <systemc>

#include "common/counter_registry.hpp"

namespace ergon {

struct NocCounters {
  std::uint64_t filter_bus_words = 0;
  std::uint64_t ifmap_bus_words = 0;
  std::uint64_t psum_bus_words = 0;
  std::uint64_t inter_pe_psum_words = 0;
  std::uint64_t transfers() const { return filter_bus_words + ifmap_bus_words + psum_bus_words + inter_pe_psum_words; }
};

// noc.filter_transfer, noc.ifmap_transfer, noc.psum_transfer (words over the buses between the GLB and
// the array) and noc.pe_hop (words between neighbouring PEs).
inline void register_counters(CounterRegistry& registry, const NocCounters& c) {
  registry.add({"noc.filter_transfer", "words", "noc_filter_words", "filter words the GLB sends to the array"},
               c.filter_bus_words);
  registry.add({"noc.ifmap_transfer", "words", "noc_ifmap_words", "ifmap words the GLB sends to the array"},
               c.ifmap_bus_words);
  registry.add({"noc.psum_transfer", "words", "noc_psum_words", "psum words between the GLB and the array"},
               c.psum_bus_words);
  registry.add({"noc.pe_hop", "words", "noc_pe_hops",
                "words passed between neighbouring PEs (row stationary: psums; systolic: operands)"},
               c.inter_pe_psum_words);
}

class INoc : public sc_core::sc_module {
 public:
  using sc_core::sc_module::sc_module;
  virtual std::uint64_t filter_words_per_cycle() const = 0;
  virtual std::uint64_t ifmap_words_per_cycle() const = 0;
  virtual std::uint64_t psum_read_words_per_cycle() const = 0;   // GLB -> array
  virtual std::uint64_t psum_write_words_per_cycle() const = 0;  // array -> GLB
  virtual void record(std::uint64_t filter_words, std::uint64_t ifmap_words, std::uint64_t psum_words,
                      std::uint64_t inter_pe_words) = 0;
  virtual const NocCounters& counters() const = 0;
};

}  // namespace ergon
