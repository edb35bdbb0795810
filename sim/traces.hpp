#pragma once
// Optional traces of a run, streamed while it goes on:
//  - trace.vcd: the activity signals (layer, stall, active PEs, per-cycle rates, clock, voltage) as a
//    value-change dump for GTKWave;
//  - trace.json: a Chrome/Perfetto timeline with layers, passes, stalls and DRAM transfers.
#include <cstdint>
#include <string>
#include <vector>

#include "arch/controller/activity.hpp"
#include "common/streaming_file.hpp"
#include "network/workload.hpp"

namespace ergon {

class VcdWriter {
 public:
  VcdWriter(const std::string& path, double frequency_mhz, double voltage_v, double dram_bandwidth_gbps);
  void write(const ActivityInterval& interval);
  void finish();
  void set_budget(OutputBudget* budget) { file_.set_budget(budget); }

 private:
  void change(const std::string& code, const std::string& value, std::string& last);

  StreamingFile file_;
  std::uint64_t last_end_ps_ = 0;
  std::vector<std::string> last_values_;
};

class PerfettoWriter {
 public:
  PerfettoWriter(const std::string& path, const Workload& workload);
  void write(const TraceEvent& event);
  void finish();
  void set_budget(OutputBudget* budget) { file_.set_budget(budget); }

 private:
  StreamingFile file_;
  std::vector<std::string> layer_names_;
  std::uint64_t next_id_ = 1;
};

}  // namespace ergon
