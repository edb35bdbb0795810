// mapper: what the dataflows' mappers minimise per layer (docs/dataflow.md).
#include "arch/config_keys.hpp"

namespace ergon {
namespace {

ChoiceNames<MapperObjective> objective_names() {
  ChoiceNames<MapperObjective> names;
  for (MapperObjective objective :
       {MapperObjective::kEnergy, MapperObjective::kLatency, MapperObjective::kEnergyDelay}) {
    names.emplace_back(mapper_objective_name(objective), objective);
  }
  return names;
}

AcceleratorConfigSection mapper_keys() {
  AcceleratorConfigSection section = config_section("mapper");
  section.keys = {choice_key<AcceleratorConfig>(
      "mapper.objective", ERGON_FIELD(mapper.objective), objective_names(),
      "what the mappers minimise per layer (row stationary: its tiling and schedule; systolic: fold order, and the "
      "dataflow under `auto`): the cost model's energy, its cycles, or their product (`docs/dataflow.md`)")};
  return section;
}

}  // namespace
}  // namespace ergon

ERGON_REGISTER(ergon::AcceleratorConfigSection, "mapper", ergon::mapper_keys(), ergon::config_order::kMapper)
