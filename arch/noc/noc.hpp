#pragma once
// The on-chip network between the GLB and the PE array, and between PEs. Implementations:
// arch/noc/impl/.
#include <cstdint>
#include <systemc>

#include "common/busy_registry.hpp"
#include "common/counter_registry.hpp"

namespace ergon {

struct NocCounters {
  std::uint64_t filter_bus_words = 0;
  std::uint64_t ifmap_bus_words = 0;
  std::uint64_t psum_bus_words = 0;
  std::uint64_t pe_hop_words = 0;
  TensorCounts pe_hop_shares;  // the hops by tensor: they add up to `pe_hop_words`
  std::uint64_t transfers() const { return filter_bus_words + ifmap_bus_words + psum_bus_words + pe_hop_words; }
};

// noc.filter_transfer, noc.ifmap_transfer, noc.psum_transfer (words over the buses between the GLB and
// the array) and noc.pe_hop (words between neighbouring PEs).
inline void register_counters(CounterRegistry& registry, const NocCounters& c) {
  registry.add(Action::kNocFilterTransfer, c.filter_bus_words);
  registry.add(Action::kNocIfmapTransfer, c.ifmap_bus_words);
  registry.add(Action::kNocPsumTransfer, c.psum_bus_words);
  registry.add(Action::kNocPeHop, c.pe_hop_words);
  registry.add_tensor_shares(Action::kNocPeHop, c.pe_hop_shares);
}

// Cycles each bus between the GLB and the array was busy: the array charges each step the bus time its
// timing gave it (a systolic array's edges are fed directly: it charges none).
struct NocBusy {
  std::uint64_t filter_bus_cycles = 0;
  std::uint64_t ifmap_bus_cycles = 0;
  std::uint64_t psum_read_bus_cycles = 0;
  std::uint64_t psum_write_bus_cycles = 0;
  NocBusy& operator+=(const NocBusy& o) {
    filter_bus_cycles += o.filter_bus_cycles, ifmap_bus_cycles += o.ifmap_bus_cycles;
    psum_read_bus_cycles += o.psum_read_bus_cycles, psum_write_bus_cycles += o.psum_write_bus_cycles;
    return *this;
  }
};

// noc.filter_bus, noc.ifmap_bus, noc.psum_read and noc.psum_write.
inline void register_busy(BusyRegistry& registry, const NocBusy& busy) {
  const auto bus = [&registry](const char* name, const char* description, const std::uint64_t& cycles) {
    registry.add({name, ResourceKind::kNetworkBus, BusyUnit::kComputeCycles, description}, cycles);
  };
  bus("noc.filter_bus", "the filter bus carrying words from the GLB to the array", busy.filter_bus_cycles);
  bus("noc.ifmap_bus", "the ifmap bus carrying words from the GLB to the array", busy.ifmap_bus_cycles);
  bus("noc.psum_read", "the psum bus carrying partial sums from the GLB to the array", busy.psum_read_bus_cycles);
  bus("noc.psum_write", "the psum bus carrying partial sums from the array to the GLB", busy.psum_write_bus_cycles);
}

class INoc : public sc_core::sc_module {
 public:
  using sc_core::sc_module::sc_module;
  virtual std::uint64_t filter_words_per_cycle() const = 0;
  virtual std::uint64_t ifmap_words_per_cycle() const = 0;
  virtual std::uint64_t psum_read_words_per_cycle() const = 0;   // GLB -> array
  virtual std::uint64_t psum_write_words_per_cycle() const = 0;  // array -> GLB
  // Counts words: over the buses by tensor, and between PEs in total and by tensor.
  virtual void record(std::uint64_t filter_words, std::uint64_t ifmap_words, std::uint64_t psum_words,
                      std::uint64_t pe_hop_words, const TensorCounts& pe_hop_shares) = 0;
  virtual const NocCounters& counters() const = 0;
  // Cycles a bus `width` words wide takes for `words`.
  static std::uint64_t bus_cycles(std::uint64_t words, std::uint64_t width) { return (words + width - 1) / width; }
  void occupy(const NocBusy& cycles) { busy_ += cycles; }
  const NocBusy& busy() const { return busy_; }

 private:
  NocBusy busy_;
};

}  // namespace ergon
