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
#include "power/area_model.hpp"
#include "sim/activity_rows.hpp"
#include "sim/simulation.hpp"

namespace ergon {

// 3: every registered counter under its column name (rf and NoC by operand, reads and writes apart);
// energy by component. 4: `bound` names the busiest resource; `busy_ns` and `busy_share` per resource.
// 5: `tensors`, each layer's and the total's counts per level and tensor (docs/run-output.md).
inline constexpr int kRunReportSchemaVersion = 5;

// A report's counter columns (the registered counters' `column` names, in registry order, per-tensor shares
// apart), and one layer's cells; a counter the layer's run did not register (a bank-level DRAM's, in a
// sweep) is an empty cell.
std::string counter_columns(const std::vector<CounterSpec>& counters);
std::string counter_cells(const LayerResult& layer, const std::vector<CounterSpec>& counters);
// The per-tensor share columns (`weights_glb_reads`, ...), each with a leading comma: a CSV lists them
// after every other column. And one layer's cells, likewise.
std::string tensor_columns(const std::vector<CounterSpec>& counters);
std::string tensor_cells(const LayerResult& layer, const std::vector<CounterSpec>& counters);
// A layer's counts per level and tensor, as Timeloop reports them: {level: {weights|inputs|outputs:
// {column: count}}}, from every catalogue action of a tensor (docs/run-output.md, "tensors").
nlohmann::ordered_json tensors_json(const LayerResult& layer);
// The energy columns: `<component>_pj` for each component with energy actions, then clock, control,
// leakage and total.
std::string energy_columns(const std::vector<CounterSpec>& counters);
std::string energy_cells(const EnergyBreakdown& energy, const std::vector<CounterSpec>& counters);
// A `<resource>_busy_share` column per registered resource (docs/simulator.md, "What bounds a layer"), and
// one layer's shares.
std::string busy_share_columns(const std::vector<ResourceSpec>& resources);
std::string busy_share_cells(const LayerResult& layer);

// The chip's area (docs/area.md) as report.json's `area_mm2`: `{mac, rf, glb[, noc], total}` in mm^2, null
// when the energy table gives no area. And results.csv's `area_mm2` column and a point's cell: the total,
// empty when unknown.
nlohmann::ordered_json area_json(const ChipArea& area);
inline constexpr const char* kAreaColumn = "area_mm2";
std::string area_cell(const ChipArea& area);
// The area of `config`'s chip with the energy table it names.
ChipArea config_area(const AcceleratorConfig& config);

std::string run_table(const SimulationResult& result);
// DRAM bytes over the layer's time, GB/s.
double achieved_dram_gbps(const LayerResult& layer);
// A command-counting DRAM model's figures beyond its counters (nothing for one priced per bit):
// dram_achieved_bandwidth_gbps and dram_energy_pj by kind.
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
