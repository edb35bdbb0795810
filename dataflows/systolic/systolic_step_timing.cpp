#include "dataflows/systolic/systolic_step_timing.hpp"

#include <algorithm>

#include "arch/glb/glb_ports.hpp"

namespace ergon {

SystolicTiming systolic_timing(const AcceleratorConfig& config) {
  const GlbConfig& glb = config.glb;
  const int word_bits = config.pe_array.word_bits;
  SystolicTiming timing;
  timing.rows = config.pe_array.rows;
  timing.cols = config.pe_array.cols;
  timing.glb_read_words = static_cast<std::uint64_t>(glb.port_words_per_cycle(glb.read_ports_per_bank, word_bits));
  timing.glb_write_words = static_cast<std::uint64_t>(glb.port_words_per_cycle(glb.write_ports_per_bank, word_bits));
  return timing;
}

std::uint64_t systolic_array_cycles(const StepTraffic& t, const SystolicTiming& timing) {
  const auto skew = t.skew_overlapped ? 0 : static_cast<std::uint64_t>(timing.rows + timing.cols - 2);
  return t.fill_cycles + t.compute_cycles + skew;
}

std::uint64_t systolic_step_cycles(const StepTraffic& t, const SystolicTiming& timing) {
  return std::max(systolic_array_cycles(t, timing), glb_access_cycles(t.ofmap_dram_words, t.deposited_words(),
                                                                      timing.glb_read_words, timing.glb_write_words));
}

}  // namespace ergon
