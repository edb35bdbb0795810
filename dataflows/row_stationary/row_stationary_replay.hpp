#pragma once
// The row-stationary cost model's cycles for one mapping, passes replayed in execution order: each pass
// staged against the GLB's slots (RowStationaryStaging, the traffic the simulation will see), timed as the
// array times it (pass_timing: the slowest of its computation, each bus and each GLB port, after its
// preload) and overlapped with DRAM as the controller overlaps it (PassPipeline). The closed form
// (evaluate_mapping) ranks the mapspace; this replay times the few best, whose estimate the mapper reports.
#include "dataflows/dram_encoding.hpp"
#include "dataflows/row_stationary/pass_timing.hpp"
#include "dataflows/row_stationary/row_stationary_mapping.hpp"

namespace ergon {

double replayed_cycles(const LoopNest& nest, const RowStationaryMapping& mapping, const DramEncoding& encoding,
                       const ArrayTiming& timing);

}  // namespace ergon
