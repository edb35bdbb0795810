#pragma once
// How long a systolic fold takes: the one timing of a fold, used by the planner's cost model
// (dataflows/systolic/systolic_cost.cpp) and by the transaction-level array
// (arch/pe_array/impl/systolic_array.cpp).
//
// The stationary operand shifts in first (fill_cycles), then T steps stream through the array and its
// wavefront skew adds rows + cols - 2 cycles: output stationary T + R + C - 2, weight/input stationary
// 2R + C + T - 2 (as SCALE-Sim v2 counts them). Pipelined folds (SystolicSchedule) hide a fold's shift-in
// behind the previous fold's stream and its skew behind the next fold's. The buffers feed the array's edges directly
// (one word per edge row or column per cycle); their bank ports carry the DRAM deposits and the finished outputs
// leaving for DRAM, and can only slow a fold down.
#include <cstdint>

#include "arch/accelerator_config.hpp"
#include "dataflows/step_traffic.hpp"

namespace ergon {

// The array and the buffer ports a fold is timed by.
struct SystolicTiming {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::uint64_t glb_read_words = 0;   // per cycle, every bank's read ports together
  std::uint64_t glb_write_words = 0;  // likewise the write ports
};
SystolicTiming systolic_timing(const AcceleratorConfig& config);

// Cycles the array works on a fold on its own: shift-in, stream and skew.
std::uint64_t systolic_array_cycles(const StepTraffic& traffic, const SystolicTiming& timing);
// Cycles of a fold: the array's or its buffer ports', whichever is longer.
std::uint64_t systolic_step_cycles(const StepTraffic& traffic, const SystolicTiming& timing);

}  // namespace ergon
