#pragma once
// The files a simulation writes (docs/run-output.md): report.json (versioned schema), layers.csv,
// activity.csv (streamed while the simulation runs), and the table printed on stdout.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "arch/accelerator_config.hpp"
#include "arch/controller/activity.hpp"
#include "common/streaming_file.hpp"
#include "network/workload.hpp"
#include "sim/activity_rows.hpp"
#include "sim/simulation.hpp"

namespace ergon {

inline constexpr int kRunReportSchemaVersion = 2;

std::string run_table(const SimulationResult& result);
// DRAM bytes over the layer's time, GB/s.
double achieved_dram_gbps(const LayerResult& layer);
// The bank-level DRAM's figures (dram.impl: banked; nothing for simple): dram_row_hits, dram_row_misses,
// dram_row_conflicts, dram_refresh_cycles, dram_achieved_bandwidth_gbps and dram_energy_pj by kind.
void add_dram_bank_fields(nlohmann::ordered_json& json, const LayerResult& layer);

nlohmann::ordered_json run_json(const SimulationResult& result, const AcceleratorConfig& config,
                                const Workload& workload, const std::string& fidelity);
std::string layers_csv(const SimulationResult& result);

// Collects activity intervals as the simulation produces them, bounded (sim/activity_rows), and writes
// activity.csv when the run finishes.
class ActivityCsvWriter {
 public:
  ActivityCsvWriter(std::string path, const Workload& workload, ActivityDetail detail, std::size_t max_rows);
  void write(const ActivityInterval& interval) { rows_.add(interval); }
  void finish();

 private:
  std::string path_;
  ActivityRows rows_;
  std::vector<std::string> layer_names_;
};

}  // namespace ergon
