#include "sim/run_observers.hpp"

#include <algorithm>

namespace ergon {

std::uint64_t activity_csv_max_bytes(ActivityDetail detail, std::size_t max_rows, const Workload& workload) {
  const std::uint64_t rows = detail == ActivityDetail::kNone     ? 0
                             : detail == ActivityDetail::kLayers ? workload.layers().size()
                                                                 : max_rows;
  return (rows + 1) * kActivityRowMaxBytes;
}

RunOutputs::RunOutputs(const std::string& out_dir, const Workload& workload, const std::vector<std::string>& traces,
                       double frequency_mhz, double voltage_v, double dram_bandwidth_gbps, ActivityDetail activity,
                       std::size_t activity_max_rows, std::uint64_t max_trace_bytes)
    : RunOutputs(out_dir, workload, traces, OperatingLevels{frequency_mhz, voltage_v, dram_bandwidth_gbps, 0}, {},
                 activity, activity_max_rows, max_trace_bytes) {}

RunOutputs::RunOutputs(const std::string& out_dir, const Workload& workload, const std::vector<std::string>& traces,
                       const AcceleratorConfig& config, ActivityDetail activity, std::size_t activity_max_rows,
                       std::uint64_t max_trace_bytes)
    : RunOutputs(out_dir, workload, traces, nominal_levels(config),
                 TraceHeading{workload.name() + " on " + config.name, config.pe_array.rows * config.pe_array.cols},
                 activity, activity_max_rows, max_trace_bytes) {}

RunOutputs::RunOutputs(const std::string& out_dir, const Workload& workload, const std::vector<std::string>& traces,
                       const OperatingLevels& nominal, const TraceHeading& heading, ActivityDetail activity,
                       std::size_t activity_max_rows, std::uint64_t max_trace_bytes)
    : trace_budget_(max_trace_bytes) {
  if (activity != ActivityDetail::kNone) {
    activity_.emplace(out_dir + "/activity.csv", workload, activity, activity_max_rows);
  }
  const auto wants = [&](const char* trace) { return std::find(traces.begin(), traces.end(), trace) != traces.end(); };
  if (wants("vcd")) {
    vcd_.emplace(out_dir + "/trace.vcd", workload, nominal.frequency_mhz, nominal.voltage_v,
                 nominal.dram_bandwidth_gbps);
    vcd_->set_budget(&trace_budget_);
  }
  if (wants("perfetto")) {
    perfetto_.emplace(out_dir + "/trace.json", workload, heading);
    perfetto_->set_budget(&trace_budget_);
  }
}

RunObservers RunOutputs::observers() {
  RunObservers observers;
  if (activity_ || vcd_ || perfetto_) {
    observers.activity = [this](const ActivityInterval& interval) {
      if (activity_) activity_->write(interval);
      if (vcd_) vcd_->write(interval);
      if (perfetto_) perfetto_->write(interval);
    };
  }
  if (perfetto_) observers.trace = [this](const TraceEvent& event) { perfetto_->write(event); };
  return observers;
}

void RunOutputs::finish() {
  if (activity_) activity_->finish();
  if (vcd_) vcd_->finish();
  if (perfetto_) perfetto_->finish();
}

void RunOutputs::finish(const SimulationResult& priced) {
  if (perfetto_) {
    std::vector<LayerEnergy> energies;
    for (const LayerResult& layer : priced.layers) {
      const double dram_pj = layer.energy.component_pj(kMemoryComponent);
      energies.push_back({layer.energy.total_pj() - dram_pj, dram_pj});
    }
    perfetto_->write_power(energies);
  }
  finish();
}

}  // namespace ergon
