#pragma once
// The global buffer between DRAM and the PE array: capacity for ifmap and psum tiles (the mapper sizes
// tiles to it), the tiles it holds of the running layer (the loader fetches what it does not hold), and the
// port bandwidth that times accesses. Implementations: arch/glb/impl/.
#include <cstdint>
#include <systemc>

#include "arch/glb/glb_ports.hpp"
#include "arch/glb/tile_store.hpp"
#include "common/busy_registry.hpp"
#include "common/counter_registry.hpp"

namespace ergon {

struct GlbCounters {
  std::uint64_t reads = 0;
  std::uint64_t writes = 0;
  TensorCounts read_shares;  // the reads by tensor: they add up to `reads`
  TensorCounts write_shares;
};

// glb.read and glb.write, in words, and their shares by tensor.
inline void register_counters(CounterRegistry& registry, const GlbCounters& counters) {
  registry.add(Action::kGlbRead, counters.reads);
  registry.add(Action::kGlbWrite, counters.writes);
  registry.add_tensor_shares(Action::kGlbRead, counters.read_shares);
  registry.add_tensor_shares(Action::kGlbWrite, counters.write_shares);
}

// Cycles the ports were busy: the array that drives them charges each step the port time its timing gave it.
struct GlbBusy {
  std::uint64_t read_port_cycles = 0;
  std::uint64_t write_port_cycles = 0;
};

class IGlobalBuffer : public sc_core::sc_module {
 public:
  using sc_core::sc_module::sc_module;
  virtual std::int64_t capacity_words() const = 0;
  virtual std::uint64_t read_words_per_cycle() const = 0;
  virtual std::uint64_t write_words_per_cycle() const = 0;
  // Cycles the ports need for these accesses (reads and writes use separate ports).
  std::uint64_t access_cycles(std::uint64_t reads, std::uint64_t writes) const {
    return glb_access_cycles(reads, writes, read_words_per_cycle(), write_words_per_cycle());
  }
  // Counts accesses: `reads` and `writes` in total, and the same accesses by tensor.
  virtual void record(std::uint64_t reads, std::uint64_t writes, const TensorCounts& read_shares,
                      const TensorCounts& write_shares) = 0;
  virtual const GlbCounters& counters() const = 0;
  GlbContents& contents() { return contents_; }
  // Cycles the read (write) ports take for `words`, at read_words_per_cycle() (write_words_per_cycle()).
  std::uint64_t read_port_cycles(std::uint64_t words) const { return glb_port_cycles(words, read_words_per_cycle()); }
  std::uint64_t write_port_cycles(std::uint64_t words) const { return glb_port_cycles(words, write_words_per_cycle()); }
  void occupy_ports(std::uint64_t read_cycles, std::uint64_t write_cycles) {
    busy_.read_port_cycles += read_cycles;
    busy_.write_port_cycles += write_cycles;
  }
  const GlbBusy& busy() const { return busy_; }

 private:
  GlbContents contents_;
  GlbBusy busy_;
};

// glb.read_port and glb.write_port (each the ports of every bank taken together).
inline void register_busy(BusyRegistry& registry, const GlbBusy& busy) {
  registry.add({"glb.read_port", ResourceKind::kBufferPort, BusyUnit::kComputeCycles,
                "the GLB's read ports (every bank's) carrying words"},
               busy.read_port_cycles);
  registry.add({"glb.write_port", ResourceKind::kBufferPort, BusyUnit::kComputeCycles,
                "the GLB's write ports (every bank's) carrying words"},
               busy.write_port_cycles);
}

}  // namespace ergon
