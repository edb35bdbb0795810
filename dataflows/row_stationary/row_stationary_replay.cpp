#include "dataflows/row_stationary/row_stationary_replay.hpp"

#include "arch/glb/tile_store.hpp"
#include "dataflows/row_stationary/row_stationary_schedule.hpp"
#include "dataflows/row_stationary/row_stationary_staging.hpp"
#include "dataflows/step_pipeline.hpp"

namespace ergon {

double replayed_cycles(const LoopNest& nest, const RowStationaryMapping& mapping, const DramEncoding& encoding,
                       const ArrayTiming& timing) {
  const RowStationarySchedule schedule(nest, mapping);
  GlbContents glb;
  RowStationaryStaging staging(schedule, glb, encoding.ifmap_density);
  StepPipeline pipeline({timing.dram_bytes_per_cycle, timing.dram_latency_cycles, mapping.double_buffered});
  schedule.for_each_step([&](const RowStationaryStep& step) {
    const StepTraffic t = staging.stage(step);
    const StepDram dram = step_dram(t, encoding);
    pipeline.add(dram, static_cast<double>(step_cycles(t, timing)));
  });
  return pipeline.cycles();
}

}  // namespace ergon
