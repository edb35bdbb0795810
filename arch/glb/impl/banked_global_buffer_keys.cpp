// `glb.impl: banked`: its banks and ports.
#include "arch/config_keys.hpp"

namespace ergon {
namespace {

AcceleratorConfigSection banked_glb_keys() {
  AcceleratorConfigSection section = config_section("glb", false, {"glb.impl", "banked"});
  const IntRule ports{1, 64};
  section.keys = {
      int_key<AcceleratorConfig>("glb.banks", ERGON_FIELD(glb.banks), IntRule{1, 1 << 16}, "banks",
                                 "banks of the ifmap/psum GLB"),
      int_key<AcceleratorConfig>("glb.bank_width_bits", ERGON_FIELD(glb.bank_width_bits), IntRule{8, 4096}, "bits",
                                 "width of one bank access"),
      int_key<AcceleratorConfig>("glb.read_ports_per_bank", ERGON_FIELD(glb.read_ports_per_bank), ports, "ports",
                                 "read ports per bank per cycle"),
      int_key<AcceleratorConfig>("glb.write_ports_per_bank", ERGON_FIELD(glb.write_ports_per_bank), ports, "ports",
                                 "write ports per bank per cycle"),
  };
  return section;
}

}  // namespace
}  // namespace ergon

ERGON_REGISTER(ergon::AcceleratorConfigSection, "banked glb", ergon::banked_glb_keys(), ergon::config_order::kGlbPlugin)
