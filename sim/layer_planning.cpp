#include "sim/layer_planning.hpp"

#include "dataflows/mapping_error.hpp"
#include "dataflows/registry.hpp"

namespace ergon {

void plan_layers(const Chip& chip, const Workload& workload, const LayerPlanningRun& run) {
  LayerPlanning planning(chip.config(), chip.prices());
  for (std::size_t i = 0; i < workload.layers().size(); ++i) {
    if (run.before_layer && !run.before_layer(i)) continue;
    const Layer& layer = workload.layers()[i];
    const std::int64_t batch = run.batch.value_or(layer.batch);
    std::unique_ptr<LayerPlan> plan;
    try {
      plan = planning.plan(layer, batch, workload.reads_network_input(layer),
                           run.mapping ? run.mapping->constraints_of(layer.name) : nullptr);
    } catch (const MappingError& error) {
      fail_at_layer(layer, "", error.what());
    }
    run.planned(i, batch, std::move(plan));
  }
}

}  // namespace ergon
