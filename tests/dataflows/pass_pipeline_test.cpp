// The cost models' DRAM overlap (dataflows/pass_pipeline.hpp), on a timeline worked out by hand: one byte a
// cycle, a 10-cycle access latency, four 50-cycle passes that fetch 100, 20, 20 and 20 bytes, the second
// writing 300 bytes back when it ends.
#include "dataflows/pass_pipeline.hpp"

#include <gtest/gtest.h>

namespace ergon {
namespace {

double layer_cycles(bool double_buffered) {
  PassPipeline pipeline({1.0, 10.0, double_buffered});
  pipeline.add({0, 100, 0}, 50);
  pipeline.add({0, 20, 300}, 50);
  pipeline.add({0, 20, 0}, 50);
  pipeline.add({0, 20, 0}, 50);
  return pipeline.cycles();
}

// Double-buffered: pass 0 starts at 110 (its fetch and the latency), each later fetch starts when the pass
// before it starts, so passes 1 and 2 follow back to back (110-160-210-260). Pass 1's write-back, issued at
// 210, holds the bus until 510: pass 3's fetch, issued at 210, arrives at 540; the layer ends at 590.
TEST(PassPipeline, AWriteBackDelaysTheFetchAfterIt) {
  EXPECT_DOUBLE_EQ(layer_cycles(true), 590.0);
}

// Single-buffered: each fetch waits for the pass before to end: pass 1 runs 190-240, its write-back holds the
// bus 240-540, pass 2's fetch arrives at 570 (runs to 620) and pass 3's at 650 (runs to 700).
TEST(PassPipeline, SingleBufferingWaitsForThePassBefore) {
  EXPECT_DOUBLE_EQ(layer_cycles(false), 700.0);
}

// Psums evicted before a pass's fetch go first on the bus; the layer ends when the last write has landed.
TEST(PassPipeline, EvictionsPrecedeTheFetchAndWritesDrain) {
  PassPipeline pipeline({2.0, 5.0, true});
  pipeline.add({40, 10, 100}, 30);  // evict 0-20, fetch 20-25 (in at 30), compute 30-60, write 60-110
  EXPECT_DOUBLE_EQ(pipeline.cycles(), 115.0);
}

}  // namespace
}  // namespace ergon
