// The cost models' DRAM overlap (dataflows/step_pipeline.hpp), on a timeline worked out by hand: one byte a
// cycle, a 10-cycle access latency, four 50-cycle steps that fetch 100, 20, 20 and 20 bytes, the second
// writing 300 bytes back when it ends.
#include "dataflows/step_pipeline.hpp"

#include <gtest/gtest.h>

namespace ergon {
namespace {

double layer_cycles(bool double_buffered) {
  StepPipeline pipeline({1.0, 10.0, double_buffered});
  pipeline.add({0, 100, 0}, 50);
  pipeline.add({0, 20, 300}, 50);
  pipeline.add({0, 20, 0}, 50);
  pipeline.add({0, 20, 0}, 50);
  return pipeline.cycles();
}

// Double-buffered: step 0 starts at 110 (its fetch and the latency), each later fetch starts when the step
// before it starts, so steps 1 and 2 follow back to back (110-160-210-260). Step 1's write-back, issued at
// 210, holds the bus until 510: step 3's fetch, issued at 210, arrives at 540; the layer ends at 590.
TEST(StepPipeline, AWriteBackDelaysTheFetchAfterIt) {
  EXPECT_DOUBLE_EQ(layer_cycles(true), 590.0);
}

// Single-buffered: each fetch waits for the step before to end: step 1 runs 190-240, its write-back holds the
// bus 240-540, step 2's fetch arrives at 570 (runs to 620) and step 3's at 650 (runs to 700).
TEST(StepPipeline, SingleBufferingWaitsForTheStepBefore) {
  EXPECT_DOUBLE_EQ(layer_cycles(false), 700.0);
}

// Psums evicted before a step's fetch go first on the bus; the layer ends when the last write has landed.
TEST(StepPipeline, EvictionsPrecedeTheFetchAndWritesDrain) {
  StepPipeline pipeline({2.0, 5.0, true});
  pipeline.add({40, 10, 100}, 30);  // evict 0-20, fetch 20-25 (in at 30), compute 30-60, write 60-110
  EXPECT_DOUBLE_EQ(pipeline.cycles(), 115.0);
}

}  // namespace
}  // namespace ergon
