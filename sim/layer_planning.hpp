#pragma once
// The per-layer planning loop of the run pipeline's plan stage (sim/run_pipeline.hpp), which `ergon map`
// runs alone: each layer, in the workload's order, is planned on the chip's dataflow with its batch and its
// mapping-file pins, ranked by the chip's prices.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include "dataflows/dataflow.hpp"
#include "dataflows/mapping_file.hpp"
#include "network/workload.hpp"
#include "sim/chip.hpp"

namespace ergon {

struct LayerPlanningRun {
  std::optional<std::int64_t> batch;     // every layer's batch; unset: each layer's own
  const MappingFile* mapping = nullptr;  // parameters pinned per layer, or none
  // Runs before each layer (interrupts, progress); false skips the layer.
  std::function<bool(std::size_t index)> before_layer;
  // Receives each layer's plan: null when the layer does not run on the array.
  std::function<void(std::size_t index, std::int64_t batch, std::unique_ptr<LayerPlan> plan)> planned;
};

// A layer no mapping fits fails with its located error (fail_at_layer).
void plan_layers(const Chip& chip, const Workload& workload, const LayerPlanningRun& run);

}  // namespace ergon
