#pragma once
// `glb.impl: banked`: `banks` SRAM banks of `bank_width_bits`, each with its read and write ports; the
// buffer serves `banks x ports x bank_width / word_bits` words per cycle each way.
#include "arch/accelerator_config.hpp"
#include "arch/glb/global_buffer.hpp"

namespace ergon {

class BankedGlobalBuffer : public IGlobalBuffer {
 public:
  BankedGlobalBuffer(sc_core::sc_module_name name, const GlbConfig& config, int word_bits);
  std::int64_t capacity_words() const override { return capacity_words_; }
  std::uint64_t read_words_per_cycle() const override { return read_words_per_cycle_; }
  std::uint64_t write_words_per_cycle() const override { return write_words_per_cycle_; }
  void record(std::uint64_t reads, std::uint64_t writes, const TensorCounts& read_shares,
              const TensorCounts& write_shares) override;
  const GlbCounters& counters() const override { return counters_; }

 private:
  std::int64_t capacity_words_;
  std::uint64_t read_words_per_cycle_;
  std::uint64_t write_words_per_cycle_;
  GlbCounters counters_;
};

}  // namespace ergon
