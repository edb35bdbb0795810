#pragma once
// Element-wise layers (add, mul, upsample; pooling on arrays that do not run it as a loop nest) on any
// array: their tensors stream from DRAM through the GLB in chunks (dataflows/elementwise/elementwise.hpp), timed by the
// array at transaction level in both fidelities.
#include <memory>

#include "dataflows/dataflow.hpp"
#include "dataflows/elementwise/elementwise.hpp"

namespace ergon {

class ElementwisePlan : public LayerPlan {
 public:
  ElementwisePlan(const ElementwiseWork& work, const AcceleratorConfig& config, const DramEncoding& encoding,
                  std::string note);
  bool double_buffered() const override { return true; }
  bool cycle_accurate() const override { return false; }
  MappingSummary mapping() const override;
  std::vector<std::string> loop_nest() const override;
  std::string note() const override { return note_; }
  void for_each_step(GlbContents& glb, const LayerTensors* tensors, const StepVisitor& visit) const override;

 private:
  ElementwiseSchedule schedule_;
  std::string note_;
};

// The layer's element-wise plan, or null when it moves no data (layout-only layers, activations).
std::unique_ptr<LayerPlan> plan_elementwise(const Layer& layer, std::int64_t batch, const AcceleratorConfig& config,
                                            const DramEncoding& encoding);

}  // namespace ergon
