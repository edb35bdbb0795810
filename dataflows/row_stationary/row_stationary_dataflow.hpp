#pragma once
// `pe_array.impl: row_stationary` (Eyeriss): the mapper searches the row-stationary mapspace per layer
// (dataflows/row_stationary/), the staging walks the chosen mapping's steps against what the GLB holds,
// RowStationaryArray times a step and RowStationaryCycleArray runs it on real values.
#include <memory>
#include <vector>

#include "dataflows/dataflow.hpp"
#include "dataflows/row_stationary/row_stationary_mapper.hpp"
#include "dataflows/row_stationary/row_stationary_schedule.hpp"

namespace ergon {

// What the loader staged in the GLB for one step (cycle fidelity).
struct StagedStep {
  std::shared_ptr<const std::vector<std::int16_t>> filter_tile;  // [m][c][r][s]; null: the PEs still hold it
  std::shared_ptr<const std::vector<std::int16_t>> ifmap_tile;   // [n][c][input_rows][input_cols], padded
  std::uint64_t deposited_words = 0;                             // written into the GLB from DRAM
};

struct RowStationaryStepDetail : StepDetail {
  RowStationaryStep step;
  StagedStep staged;
};

class RowStationaryPlan : public LayerPlan {
 public:
  RowStationaryPlan(const LoopNest& nest, const MappingChoice& choice, const DramEncoding& encoding,
                    MapperObjective objective);
  const RowStationarySchedule& schedule() const { return schedule_; }
  const LoopNest* nest() const override { return &schedule_.nest(); }
  bool double_buffered() const override { return schedule_.mapping().double_buffered; }
  bool cycle_accurate() const override { return true; }
  MappingSummary mapping() const override;
  std::vector<std::string> loop_nest() const override;
  void for_each_step(GlbContents& glb, const LayerTensors* tensors, const StepVisitor& visit) const override;

 private:
  RowStationarySchedule schedule_;
  MappingChoice choice_;
  MapperObjective objective_;
};

// The mapper's view of an accelerator: its array, buffers and buses, and the prices it ranks by.
MapperContext mapper_context(const AcceleratorConfig& config, const AccessPrices& prices);

// Every parameter of a mapping, loop order included, as report.json and `ergon map` show it.
nlohmann::ordered_json mapping_parameters(const RowStationaryMapping& mapping);

const IDataflow& row_stationary_dataflow();

}  // namespace ergon
