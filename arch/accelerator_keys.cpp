// The top-level keys of an accelerator config.
#include "arch/config_keys.hpp"

namespace ergon {
namespace {

AcceleratorConfigSection top_level() {
  AcceleratorConfigSection section = config_section("");
  section.keys = {
      text_key<AcceleratorConfig>("name", ERGON_FIELD(name), "accelerator name", true),
      text_key<AcceleratorConfig>("description", ERGON_FIELD(description), "free text"),
  };
  return section;
}

}  // namespace
}  // namespace ergon

ERGON_REGISTER(ergon::AcceleratorConfigSection, "top level", ergon::top_level(), ergon::config_order::kTop)
