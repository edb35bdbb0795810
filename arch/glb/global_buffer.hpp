#pragma once
// The global buffer between DRAM and the PE array: capacity for ifmap and psum tiles (the mapper sizes
// tiles to it), the tiles it holds of the running layer (the loader fetches what it does not hold), and the
// port bandwidth that times accesses. Implementations: arch/glb/impl/.
#include <cstdint>
#include <systemc>

#include "common/counter_registry.hpp"
#include "dataflow/tile_store.hpp"

namespace ergon {

struct GlbCounters {
  std::uint64_t reads = 0;
  std::uint64_t writes = 0;
};

// glb.read and glb.write, in words.
inline void register_counters(CounterRegistry& registry, const GlbCounters& counters) {
  registry.add({"glb.read", "words", "glb_reads", "words read from the global buffer"}, counters.reads);
  registry.add({"glb.write", "words", "glb_writes", "words written into the global buffer"}, counters.writes);
}

class IGlobalBuffer : public sc_core::sc_module {
 public:
  using sc_core::sc_module::sc_module;
  virtual std::int64_t capacity_words() const = 0;
  virtual std::uint64_t read_words_per_cycle() const = 0;
  virtual std::uint64_t write_words_per_cycle() const = 0;
  // Cycles the ports need for these accesses (reads and writes use separate ports).
  virtual std::uint64_t access_cycles(std::uint64_t reads, std::uint64_t writes) const = 0;
  virtual void record(std::uint64_t reads, std::uint64_t writes) = 0;
  virtual const GlbCounters& counters() const = 0;
  GlbContents& contents() { return contents_; }

 private:
  GlbContents contents_;
};

}  // namespace ergon
