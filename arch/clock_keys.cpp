// clock: the compute clock's nominal operating point.
#include "arch/config_keys.hpp"

namespace ergon {
namespace {

AcceleratorConfigSection clock_keys() {
  AcceleratorConfigSection section = config_section("clock", true);
  section.keys = {
      number_key<AcceleratorConfig>("clock.frequency_mhz", ERGON_FIELD(clock.frequency_mhz), kClockMhz, "MHz",
                                    "core clock", true),
      number_key<AcceleratorConfig>("clock.voltage_v", ERGON_FIELD(clock.voltage_v), kSupplyV, "V",
                                    "core supply at that clock", true),
  };
  return section;
}

}  // namespace
}  // namespace ergon

ERGON_REGISTER(ergon::AcceleratorConfigSection, "clock", ergon::clock_keys(), ergon::config_order::kClock)
