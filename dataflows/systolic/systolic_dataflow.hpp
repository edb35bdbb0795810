#pragma once
// `pe_array.impl: systolic` (TPU-like, SCALE-Sim's dataflows `pe_array.dataflow: os | ws | is`, or `auto`
// to choose per layer): a conv or fc layer is lowered to GEMM folds (dataflows/systolic/) whose fold order
// (and with `auto` whose dataflow) the planner picks by `mapper.objective`; pooling streams through the
// buffers as an element-wise layer. SystolicArray times a fold and SystolicCycleArray runs it on real values.
#include "dataflows/access_prices.hpp"
#include "dataflows/dataflow.hpp"
#include "dataflows/systolic/systolic_schedule.hpp"

namespace ergon {

struct SystolicStepDetail : StepDetail {
  SystolicFold fold;
};

class SystolicPlan : public LayerPlan {
 public:
  SystolicPlan(SystolicSchedule schedule, const DramEncoding& encoding, MappingSummary::Estimate estimate);
  const SystolicSchedule& schedule() const { return schedule_; }
  const LoopNest* nest() const override { return &schedule_.nest(); }
  bool double_buffered() const override { return true; }
  bool cycle_accurate() const override { return true; }
  MappingSummary mapping() const override;
  std::vector<std::string> loop_nest() const override;
  void for_each_step(GlbContents& glb, const LayerTensors* tensors, const StepVisitor& visit) const override;

 private:
  SystolicSchedule schedule_;
  MappingSummary::Estimate estimate_;
};

const char* systolic_dataflow_name(SystolicDataflow dataflow);  // os, ws, is

const IDataflow& systolic_dataflow();

}  // namespace ergon
