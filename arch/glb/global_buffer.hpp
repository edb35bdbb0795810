#pragma once
// The global buffer: banked SRAM for ifmaps and psums, plus an optional separate filter store. It
// holds the tiles the mapper sized for it and serves reads and writes through its bank ports; how
// long a batch of accesses takes follows from the ports per cycle.
#include <cstdint>
#include <systemc>

#include "arch/accelerator_config.hpp"

namespace ergon {

struct GlbCounters {
  std::uint64_t reads = 0;
  std::uint64_t writes = 0;
};

class GlobalBuffer : public sc_core::sc_module {
 public:
  GlobalBuffer(sc_core::sc_module_name name, const GlbConfig& config, int word_bits);

  std::int64_t capacity_words() const { return capacity_words_; }
  // Cycles the banks need for these accesses, reads and writes using separate ports.
  std::uint64_t access_cycles(std::uint64_t reads, std::uint64_t writes) const;
  void record(std::uint64_t reads, std::uint64_t writes);
  const GlbCounters& counters() const { return counters_; }

 private:
  std::int64_t capacity_words_;
  std::uint64_t read_words_per_cycle_;
  std::uint64_t write_words_per_cycle_;
  GlbCounters counters_;
};

}  // namespace ergon
