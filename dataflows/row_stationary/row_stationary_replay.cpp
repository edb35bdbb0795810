#include "dataflows/row_stationary/row_stationary_replay.hpp"

#include "arch/glb/tile_store.hpp"
#include "dataflows/pass_pipeline.hpp"
#include "dataflows/row_stationary/row_stationary_schedule.hpp"
#include "dataflows/row_stationary/row_stationary_staging.hpp"

namespace ergon {

double replayed_cycles(const LoopNest& nest, const RowStationaryMapping& mapping, const DramEncoding& encoding,
                       const ArrayTiming& timing) {
  const RowStationarySchedule schedule(nest, mapping);
  GlbContents glb;
  RowStationaryStaging staging(schedule, glb, encoding.ifmap_density);
  PassPipeline pipeline({timing.dram_bytes_per_cycle, timing.dram_latency_cycles, mapping.double_buffered});
  schedule.for_each_pass([&](const RowStationaryPass& pass) {
    const PassTraffic t = staging.stage(pass);
    const PassDram dram = pass_dram(t, encoding);
    pipeline.add(dram, static_cast<double>(pass_cycles(t, timing)));
  });
  return pipeline.cycles();
}

}  // namespace ergon
