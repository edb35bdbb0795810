// pe_array: the array's plug-in and shape; the plug-ins add their own keys (dataflows/*_keys.cpp).
#include "arch/config_keys.hpp"
#include "dataflows/registry.hpp"

namespace ergon {
namespace {

AcceleratorConfigSection pe_array_keys() {
  AcceleratorConfigSection section = config_section("pe_array", true);
  const IntRule side{1, kMaxArraySide};
  section.keys = {
      plugin_key<AcceleratorConfig>("pe_array.impl", ERGON_FIELD(pe_array.impl), dataflow_names,
                                    "PE-array implementation (a registered dataflow plug-in)"),
      int_key<AcceleratorConfig>("pe_array.rows", ERGON_FIELD(pe_array.rows), side, "PEs", "PE array rows", true),
      int_key<AcceleratorConfig>("pe_array.cols", ERGON_FIELD(pe_array.cols), side, "PEs", "PE array columns", true),
      word_bits_key("pe_array.word_bits", ERGON_FIELD(pe_array.word_bits), "datapath word width"),
  };
  return section;
}

// Once the array, the buffers and the DRAM are read: the dataflow's own checks (e.g. buffer sizes).
AcceleratorConfigSection array_checks() {
  AcceleratorConfigSection section = config_section("");
  section.check = [](YamlMap& /*top*/, YamlMap& root, AcceleratorConfig& config) {
    dataflow_of(config.pe_array).check_config(root, config);
  };
  return section;
}

}  // namespace
}  // namespace ergon

ERGON_REGISTER(ergon::AcceleratorConfigSection, "pe_array", ergon::pe_array_keys(), ergon::config_order::kPeArray)
ERGON_REGISTER(ergon::AcceleratorConfigSection, "dataflow checks", ergon::array_checks(),
               ergon::config_order::kArrayChecks)
