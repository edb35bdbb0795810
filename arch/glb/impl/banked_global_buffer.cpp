#include "arch/glb/impl/banked_global_buffer.hpp"

#include "arch/components.hpp"

namespace ergon {
BankedGlobalBuffer::BankedGlobalBuffer(sc_core::sc_module_name name, const GlbConfig& config, int word_bits)
    : IGlobalBuffer(name),
      capacity_words_(words_of_kib(config.size_kib, word_bits)),
      read_words_per_cycle_(
          static_cast<std::uint64_t>(config.port_words_per_cycle(config.read_ports_per_bank, word_bits))),
      write_words_per_cycle_(
          static_cast<std::uint64_t>(config.port_words_per_cycle(config.write_ports_per_bank, word_bits))) {}

void BankedGlobalBuffer::record(std::uint64_t reads, std::uint64_t writes, const TensorCounts& read_shares,
                                const TensorCounts& write_shares) {
  counters_.read_shares += read_shares;
  counters_.write_shares += write_shares;
  counters_.reads += reads;
  counters_.writes += writes;
}

ERGON_REGISTER(GlbImpl, "banked", GlbImpl{[](const GlbConfig& config, int word_bits) -> std::unique_ptr<IGlobalBuffer> {
                 return std::make_unique<BankedGlobalBuffer>("glb", config, word_bits);
               }})

}  // namespace ergon
