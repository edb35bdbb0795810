#pragma once
// The files a simulation writes (docs/run-output.md): report.json (versioned schema), layers.csv,
// activity.csv (streamed while the simulation runs), and the table printed on stdout.
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "arch/accelerator_config.hpp"
#include "arch/controller/activity.hpp"
#include "network/workload.hpp"
#include "sim/simulation.hpp"

namespace ergon {

inline constexpr int kRunReportSchemaVersion = 1;

std::string run_table(const SimulationResult& result);
nlohmann::ordered_json run_json(const SimulationResult& result, const AcceleratorConfig& config,
                                const Workload& workload, const std::string& fidelity);
std::string layers_csv(const SimulationResult& result);

// Streams activity intervals to a temporary file, renamed into place by finish().
class ActivityCsvWriter {
 public:
  ActivityCsvWriter(std::string path, const Workload& workload, double frequency_mhz, double voltage_v);
  ~ActivityCsvWriter();
  ActivityCsvWriter(const ActivityCsvWriter&) = delete;
  ActivityCsvWriter& operator=(const ActivityCsvWriter&) = delete;

  void write(const ActivityInterval& interval);
  void finish();

 private:
  std::string path_;
  std::string temporary_path_;
  std::FILE* file_ = nullptr;
  std::vector<std::string> layer_names_;
  double frequency_mhz_;
  double voltage_v_;
};

}  // namespace ergon
