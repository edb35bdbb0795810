#pragma once
// The streamed outputs of one simulation: activity.csv always, trace.vcd and trace.json on request.
// They are written while the simulation runs and renamed into place by finish().
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
  // `traces` may hold "vcd" and "perfetto".
  RunOutputs(const std::string& out_dir, const Workload& workload, const std::vector<std::string>& traces,
             double frequency_mhz, double voltage_v, double dram_bandwidth_gbps);
  RunObservers observers();
  void finish();

 private:
  ActivityCsvWriter activity_;
  std::optional<VcdWriter> vcd_;
  std::optional<PerfettoWriter> perfetto_;
};

}  // namespace ergon
