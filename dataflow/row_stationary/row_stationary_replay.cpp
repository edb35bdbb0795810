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
    const std::uint64_t stored = t.ifmap_dram_stored_words;
    PassDram dram;
    dram.evicted_bytes = encoding.raw_bytes(t.psum_spill_write_words);
    dram.read_bytes =
        encoding.raw_bytes(t.filter_dram_words + t.psum_spill_read_words) +
        (stored > 0 ? encoding.ifmap_bytes(stored, DramEncoding::expected(stored, encoding.ifmap_density)) : 0);
    dram.written_bytes = t.ofmap_dram_words > 0 ? encoding.ofmap_bytes(t.ofmap_dram_words) : 0;
    const PassTiming pass_time = pass_timing(pass_load(t), timing);
    pipeline.add(dram, std::ceil(pass_time.preload_cycles) + std::ceil(pass_time.stream_cycles));
  });
  return pipeline.cycles();
}

}  // namespace ergon
