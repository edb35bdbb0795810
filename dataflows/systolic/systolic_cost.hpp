#pragma once
// The systolic planner's cost model: a schedule walked fold by fold with the traffic the simulation will see.
#include "arch/accelerator_config.hpp"
#include "dataflows/access_prices.hpp"
#include "dataflows/dram_encoding.hpp"
#include "dataflows/mapping_summary.hpp"
#include "dataflows/resident_traffic.hpp"
#include "dataflows/systolic/systolic_schedule.hpp"

namespace ergon {

// The cost of one schedule, walked fold by fold with the traffic the simulation will see: buffer and DRAM
// accesses exactly (in the loader's encoding), cycles estimated from what bounds each fold: the longest of
// the array's time (shift-in, stream, skew) and its bank ports' time (systolic_step_timing.hpp, the array's
// own timing), overlapped with DRAM as the controller overlaps it (StepPipeline, double-buffered). Each
// fold's traffic is first trimmed of what the GLB holds (`residency`), as the loader trims it.
MappingSummary::Estimate estimate_schedule(const SystolicSchedule& schedule, const AcceleratorConfig& config,
                                           const DramEncoding& encoding, const AccessPrices& prices,
                                           MapperObjective objective, const LayerResidency& residency = {});

}  // namespace ergon
