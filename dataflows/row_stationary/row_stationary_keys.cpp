// pe_array.rf: the per-PE register files of a row-stationary array.
#include "arch/config_keys.hpp"

namespace ergon {
namespace {

AcceleratorConfigSection register_file_keys() {
  AcceleratorConfigSection section = config_section("pe_array.rf", true, {"pe_array.impl", "row_stationary"});
  const IntRule entries{1, 1 << 20};
  section.keys = {
      int_key<AcceleratorConfig>("pe_array.rf.filter_entries", ERGON_FIELD(pe_array.rf.filter_entries), entries,
                                 "words", "per-PE filter scratchpad", true),
      int_key<AcceleratorConfig>("pe_array.rf.ifmap_entries", ERGON_FIELD(pe_array.rf.ifmap_entries), entries, "words",
                                 "per-PE ifmap scratchpad", true),
      int_key<AcceleratorConfig>("pe_array.rf.psum_entries", ERGON_FIELD(pe_array.rf.psum_entries), entries, "words",
                                 "per-PE psum scratchpad", true),
      bool_key<AcceleratorConfig>("pe_array.rf.filter_double_buffered", ERGON_FIELD(pe_array.rf.filter_double_buffered),
                                  "the filter scratchpad holds the next pass's filters beside the current ones (the "
                                  "mapper then has half of it per pass)"),
  };
  section.refuse = [](const YamlView& rf, const AcceleratorConfig& config) {
    rf.fail("a " + config.pe_array.impl + " array has no per-PE register files to configure; remove rf");
  };
  return section;
}

}  // namespace
}  // namespace ergon

ERGON_REGISTER(ergon::AcceleratorConfigSection, "row_stationary pe_array.rf", ergon::register_file_keys(),
               ergon::config_order::kPeArrayPlugin)
