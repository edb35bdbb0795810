#include "dataflow/row_stationary/row_stationary_replay.hpp"

#include <cmath>

#include "dataflow/pass_pipeline.hpp"
#include "dataflow/row_stationary/row_stationary_schedule.hpp"
#include "dataflow/row_stationary/row_stationary_staging.hpp"
#include "dataflow/tile_store.hpp"

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
    const PassTiming pass_time = pass_timing(pass_load(t), timing);
    pipeline.add(dram, std::ceil(pass_time.preload_cycles) + std::ceil(pass_time.stream_cycles));
  });
  return pipeline.cycles();
}

}  // namespace ergon
