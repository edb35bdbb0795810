#pragma once
// The outputs of one simulation besides its report: activity.csv (bounded, unless `--activity none`),
// trace.vcd and trace.json on request. Traces stream while the simulation runs; every file is renamed
// into place by finish().
#include <optional>
#include <string>
#include <vector>

#include "arch/controller/activity.hpp"
#include "network/workload.hpp"
#include "sim/run_report.hpp"
#include "sim/traces.hpp"

namespace ergon {

class RunOutputs {
 public:
  // `traces` may hold "vcd" and "perfetto". activity.csv is written unless `activity` is kNone.
  RunOutputs(const std::string& out_dir, const Workload& workload, const std::vector<std::string>& traces,
             double frequency_mhz, double voltage_v, double dram_bandwidth_gbps,
             ActivityDetail activity = ActivityDetail::kIntervals,
             std::size_t activity_max_rows = kDefaultActivityMaxRows);
  RunObservers observers();
  void finish();

 private:
  std::optional<ActivityCsvWriter> activity_;
  std::optional<VcdWriter> vcd_;
  std::optional<PerfettoWriter> perfetto_;
};

}  // namespace ergon
