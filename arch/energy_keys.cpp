// energy: the table that prices the counted actions (power/tables/, docs/energy.md).
#include "arch/config_keys.hpp"

namespace ergon {
namespace {

AcceleratorConfigSection energy_keys() {
  AcceleratorConfigSection section = config_section("energy");
  AcceleratorConfigKey table = text_key<AcceleratorConfig>(
      "energy.table", ERGON_FIELD(energy.table),
      "a shipped table name (`power/tables/<name>.yaml`) or a path ending in `.yaml`, relative to the config file");
  section.keys = {with_check<AcceleratorConfig>(table, [](YamlMap& map, const AcceleratorConfig& config) {
    if (config.energy.table.empty()) map.at("table").fail("give a table name or a path to a .yaml table");
  })};
  return section;
}

}  // namespace
}  // namespace ergon

ERGON_REGISTER(ergon::AcceleratorConfigSection, "energy", ergon::energy_keys(), ergon::config_order::kEnergy)
