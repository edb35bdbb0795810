#include "dataflows/resident_traffic.hpp"

#include <algorithm>

namespace ergon {

std::uint64_t ResidentTraffic::Running::take(std::uint64_t words, double share) {
  seen += words;
  const std::uint64_t target = DramEncoding::expected(seen, share);
  const std::uint64_t now = std::min(words, target > taken ? target - taken : 0);
  taken += now;
  return now;
}

ResidentTraffic::Moved ResidentTraffic::apply(LayerStep& step) {
  StepTraffic& t = step.traffic;
  Moved moved;
  const double share = residency_.input_share_on_chip;
  if (share > 0) {
    const std::uint64_t words = ifmap_.take(t.ifmap_dram_words, share);
    const std::uint64_t stored = stored_.take(t.ifmap_dram_stored_words, share);
    const std::uint64_t nonzeros = nonzeros_.take(step.stored_ifmap_nonzeros, share);
    if (stored > 0) moved.input_on_chip_bytes = encoding_.ifmap_bytes(stored, std::min(nonzeros, stored));
    t.ifmap_dram_words -= words;
    t.ifmap_dram_stored_words -= stored;
    step.stored_ifmap_nonzeros -= nonzeros;
    t.glb_writes -= words;  // already in the GLB: nothing deposited
  }
  if (residency_.weights_on_chip) {
    moved.weight_on_chip_bytes = encoding_.weight_bytes(t.filter_dram_words);
    t.glb_writes -= t.filter_dram_words;  // already in the GLB: nothing deposited
    t.filter_dram_words = 0;
  }
  if (residency_.output_kept) {
    moved.output_kept_words = t.ofmap_dram_words;
    t.glb_reads -= t.ofmap_dram_words;  // not read out for a write-back
    t.ofmap_dram_words = 0;
  }
  return moved;
}

}  // namespace ergon
