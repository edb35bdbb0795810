#pragma once
// Optional traces of a run, streamed while it goes on (docs/simulator.md, "Traces"):
//  - trace.vcd: the activity signals (layer index and name, stall, active PEs, per-cycle rates, clock,
//    voltage) as a value-change dump for GTKWave;
//  - trace.json: a Chrome/Perfetto timeline with layers, passes, stalls and DRAM transfers, and counter
//    tracks for PE utilisation, DRAM and GLB bandwidth, power and the DVFS levels.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "arch/controller/activity.hpp"
#include "common/streaming_file.hpp"
#include "network/workload.hpp"
#include "sim/trace_counters.hpp"

namespace ergon {

class VcdWriter {
 public:
  VcdWriter(const std::string& path, const Workload& workload, double frequency_mhz, double voltage_v,
            double dram_bandwidth_gbps);
  void write(const ActivityInterval& interval);
  void finish();
  void set_budget(OutputBudget* budget) { file_.set_budget(budget); }

 private:
  void change(std::size_t signal, const std::string& value);
  void idle_rates();

  StreamingFile file_;
  std::vector<std::string> layer_names_;  // as VCD string values
  std::uint64_t last_end_ps_ = 0;
  std::vector<std::string> last_values_;
};

// What the timeline says about the run besides its workload.
struct TraceHeading {
  std::string run_name;       // the process's name, "<workload> on <chip>"; empty: the workload's name
  std::int64_t pe_count = 0;  // 0: unknown, and no PE utilisation track
};

class PerfettoWriter {
 public:
  PerfettoWriter(const std::string& path, const Workload& workload, const TraceHeading& heading = {});
  void write(const TraceEvent& event);
  void write(const ActivityInterval& interval);
  // The power track, from the energy the report priced for each layer (by layer index); before finish().
  void write_power(const std::vector<LayerEnergy>& energies);
  void finish();
  void set_budget(OutputBudget* budget) { file_.set_budget(budget); }

 private:
  void write_metadata(const Workload& workload, const TraceHeading& heading);
  void write_slice(const TraceEvent& event);
  void write_levels(const TraceEvent& event);
  void write_dram_transfer(const TraceEvent& event);

  StreamingFile file_;
  std::vector<std::string> layer_names_;
  std::uint64_t next_id_ = 1;
  ActivityTracks activity_;
  TransferBandwidthTrack dram_read_;
  TransferBandwidthTrack dram_write_;
  std::vector<std::optional<LayerSpan>> layer_spans_;  // by layer index, as the layers end
};

}  // namespace ergon
