// A DRAM model that reports its commands is priced from its preset's datasheet currents; the mapper and
// the analytical estimators rank its traffic by the streaming-read figure from the same currents. The
// figure is energy, so power/ sets it once the dram mapping is read (the model's own keys derive it and
// refuse it when given).
#include "arch/components.hpp"
#include "arch/config_keys.hpp"
#include "arch/dram/banked/dram_specs.hpp"
#include "power/dram/drampower_energy.hpp"

namespace ergon {
namespace {

AcceleratorConfigSection drampower_price_keys() {
  AcceleratorConfigSection section = config_section("dram", false);
  section.check = [](YamlMap& /*dram*/, YamlMap& /*root*/, AcceleratorConfig& config) {
    if (!dram_reports_commands(config.dram)) return;
    if (const DramSpec* spec = find_dram_spec(config.dram.preset)) {
      config.dram.energy_pj_per_bit = streaming_read_pj_per_bit(*spec);
    }
  };
  return section;
}

}  // namespace
}  // namespace ergon

ERGON_REGISTER(ergon::AcceleratorConfigSection, "drampower price", ergon::drampower_price_keys(),
               ergon::config_order::kDramPricing)
