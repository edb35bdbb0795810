#pragma once
// The outputs of one simulation besides its report: activity.csv (bounded, unless `--activity none`),
// trace.vcd and trace.json on request. Traces stream while the simulation runs; every file is renamed
// into place by finish().
#include <optional>
#include <string>
#include <vector>

#include "arch/accelerator_config.hpp"
#include "arch/controller/activity.hpp"
#include "arch/operating_levels.hpp"
#include "common/output_budget.hpp"
#include "network/workload.hpp"
#include "sim/run_report.hpp"
#include "sim/traces.hpp"

namespace ergon {

// The most bytes an activity.csv row takes (17 numbers in shortest round-trip form): the size bound of
// activity.csv checked before a run.
inline constexpr std::uint64_t kActivityRowMaxBytes = 200;

// How many bytes activity.csv may take at `detail` for `workload`, at most.
std::uint64_t activity_csv_max_bytes(ActivityDetail detail, std::size_t max_rows, const Workload& workload);

class RunOutputs {
 public:
  // `traces` may hold "vcd" and "perfetto". activity.csv is written unless `activity` is kNone. The traces
  // together may take `max_trace_bytes`; past it they stop (see trace_budget()).
  RunOutputs(const std::string& out_dir, const Workload& workload, const std::vector<std::string>& traces,
             double frequency_mhz, double voltage_v, double dram_bandwidth_gbps,
             ActivityDetail activity = ActivityDetail::kIntervals,
             std::size_t activity_max_rows = kDefaultActivityMaxRows, std::uint64_t max_trace_bytes = UINT64_MAX);
  // With the chip's config: the traces start at its nominal levels, and trace.json is named after the chip
  // and the workload and has a PE utilisation track.
  RunOutputs(const std::string& out_dir, const Workload& workload, const std::vector<std::string>& traces,
             const AcceleratorConfig& config, ActivityDetail activity = ActivityDetail::kIntervals,
             std::size_t activity_max_rows = kDefaultActivityMaxRows, std::uint64_t max_trace_bytes = UINT64_MAX);
  RunObservers observers();
  void finish();
  // Also gives trace.json its power track: the energy `priced` (the report's) per layer over the layer's time.
  void finish(const SimulationResult& priced);
  // The traces outgrew their budget: they are incomplete and must not be kept.
  const OutputBudget& trace_budget() const { return trace_budget_; }

 private:
  RunOutputs(const std::string& out_dir, const Workload& workload, const std::vector<std::string>& traces,
             const OperatingLevels& nominal, const TraceHeading& heading, ActivityDetail activity,
             std::size_t activity_max_rows, std::uint64_t max_trace_bytes);

  OutputBudget trace_budget_;
  std::optional<ActivityCsvWriter> activity_;
  std::optional<VcdWriter> vcd_;
  std::optional<PerfettoWriter> perfetto_;
};

}  // namespace ergon
