#include "dataflows/systolic/systolic_cost.hpp"

#include "dataflows/step_pipeline.hpp"
#include "dataflows/systolic/systolic_step_timing.hpp"

namespace ergon {

MappingSummary::Estimate estimate_schedule(const SystolicSchedule& schedule, const AcceleratorConfig& config,
                                           const DramEncoding& encoding, const AccessPrices& prices,
                                           MapperObjective objective, const LayerResidency& residency) {
  PipelineTiming timing;
  timing.dram_bytes_per_cycle = config.dram.bandwidth_gbps * 1e3 / config.clock.frequency_mhz;
  timing.dram_latency_cycles = config.dram.latency_ns * config.clock.frequency_mhz * 1e-3;
  timing.double_buffered = true;
  StepPipeline pipeline(timing);
  const SystolicTiming fold_timing = systolic_timing(config);
  ActionCounts counts;  // the folds' on-chip actions
  std::uint64_t dram_read_bytes = 0, dram_write_bytes = 0;
  ResidentTraffic resident(residency, encoding);
  const bool trimmed = residency.any();
  LayerStep step;
  schedule.for_each_fold([&](const SystolicFold& /*fold*/, const StepTraffic& folded) {
    const StepTraffic* traffic = &folded;
    if (trimmed) {
      step.traffic = folded;
      step.stored_ifmap_nonzeros = DramEncoding::expected(folded.ifmap_dram_stored_words, encoding.ifmap_density);
      resident.apply(step);
      traffic = &step.traffic;
    }
    const StepTraffic& t = *traffic;
    const StepDram dram = step_dram(t, encoding);
    pipeline.add(dram, static_cast<double>(systolic_step_cycles(t, fold_timing)));
    counts += on_chip_counts(t);
    dram_read_bytes += dram.read_bytes;
    dram_write_bytes += dram.evicted_bytes + dram.written_bytes;
  });
  const double cycles = pipeline.cycles();
  MappingSummary::Estimate estimate;
  estimate.cycles = cycles;
  estimate.dram_bytes = dram_read_bytes + dram_write_bytes;
  estimate.glb_accesses = counts[Action::kGlbRead] + counts[Action::kGlbWrite];
  estimate.energy_pj = on_chip_pj(prices, counts) + static_cast<double>(dram_read_bytes) * prices[Action::kDramRead] +
                       static_cast<double>(dram_write_bytes) * prices[Action::kDramWrite] + cycles * prices.cycle_pj;
  estimate.best_objective = objective_value(objective, estimate.energy_pj, cycles);
  return estimate;
}

}  // namespace ergon
