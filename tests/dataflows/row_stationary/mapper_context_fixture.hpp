#pragma once
// A mapper context for tests that build one by hand: the default hardware with Eyeriss's buses and ports
// (configs/eyeriss.yaml: 4-word buses, one 4-word port each way, a 12-word ifmap RF) and a 1.6 GB/s DRAM at
// 200 MHz (8 bytes and 20 cycles of latency per array cycle).
#include "dataflows/row_stationary/row_stationary_mapper.hpp"

namespace ergon::test {

inline MapperContext mapper_context() {
  MapperContext context;
  ArrayTiming& timing = context.timing;
  timing.filter_bus_words = timing.ifmap_bus_words = timing.psum_read_bus_words = timing.psum_write_bus_words = 4;
  timing.glb_read_words = timing.glb_write_words = 4;
  timing.ifmap_rf_words = 12;
  timing.dram_bytes_per_cycle = 8;
  timing.dram_latency_cycles = 20;
  return context;
}

}  // namespace ergon::test
