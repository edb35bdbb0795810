#pragma once
// The row-stationary cost model's cycles for one mapping, steps replayed in execution order: each step
// staged against the GLB's slots (RowStationaryStaging, the traffic the simulation will see), timed as the
// array times it (step_timing: the slowest of its computation, each bus and each GLB port, after its
// preload) and overlapped with DRAM as the controller overlaps it (StepPipeline). The closed form
// (evaluate_mapping) ranks the mapspace; this replay times the few best, whose estimate the mapper reports.
#include "dataflows/dram_encoding.hpp"
#include "dataflows/row_stationary/row_stationary_mapping.hpp"
#include "dataflows/row_stationary/step_timing.hpp"

namespace ergon {

double replayed_cycles(const LoopNest& nest, const RowStationaryMapping& mapping, const DramEncoding& encoding,
                       const ArrayTiming& timing);

}  // namespace ergon
