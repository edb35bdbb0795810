#include "sim/run_observers.hpp"

#include <algorithm>

namespace ergon {

RunOutputs::RunOutputs(const std::string& out_dir, const Workload& workload, const std::vector<std::string>& traces,
                       double frequency_mhz, double voltage_v, double dram_bandwidth_gbps, ActivityDetail activity,
                       std::size_t activity_max_rows) {
  if (activity != ActivityDetail::kNone) {
    activity_.emplace(out_dir + "/activity.csv", workload, activity, activity_max_rows);
  }
  const auto wants = [&](const char* trace) { return std::find(traces.begin(), traces.end(), trace) != traces.end(); };
  if (wants("vcd")) vcd_.emplace(out_dir + "/trace.vcd", frequency_mhz, voltage_v, dram_bandwidth_gbps);
  if (wants("perfetto")) perfetto_.emplace(out_dir + "/trace.json", workload);
}

RunObservers RunOutputs::observers() {
  RunObservers observers;
  if (activity_ || vcd_) {
    observers.activity = [this](const ActivityInterval& interval) {
      if (activity_) activity_->write(interval);
      if (vcd_) vcd_->write(interval);
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

}  // namespace ergon
