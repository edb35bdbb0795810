// noc: the network between the GLB and the PE array; the model adds its own keys (impl/*_keys.cpp).
#include "arch/components.hpp"
#include "arch/config_keys.hpp"

namespace ergon {
namespace {

AcceleratorConfigSection noc_keys() {
  AcceleratorConfigSection section = config_section("noc");
  section.keys = {plugin_key<AcceleratorConfig>("noc.impl", ERGON_FIELD(noc.impl), noc_impl_names,
                                                "NoC implementation (a registered model)")};
  return section;
}

}  // namespace
}  // namespace ergon

ERGON_REGISTER(ergon::AcceleratorConfigSection, "noc", ergon::noc_keys(), ergon::config_order::kNoc)
