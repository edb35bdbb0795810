#pragma once
// GLB port time, defined once for the modules (arch/glb/global_buffer.hpp) and the dataflows' step timing
// (dataflows/): plain arithmetic, below the SystemC modules.
#include <algorithm>
#include <cstdint>

namespace ergon {

// `words` through ports that move `words_per_cycle` a cycle, and reads and writes on their separate ports at
// once.
inline std::uint64_t glb_port_cycles(std::uint64_t words, std::uint64_t words_per_cycle) {
  return (words + words_per_cycle - 1) / words_per_cycle;
}
inline std::uint64_t glb_access_cycles(std::uint64_t reads, std::uint64_t writes, std::uint64_t read_words_per_cycle,
                                       std::uint64_t write_words_per_cycle) {
  return std::max(glb_port_cycles(reads, read_words_per_cycle), glb_port_cycles(writes, write_words_per_cycle));
}

}  // namespace ergon
