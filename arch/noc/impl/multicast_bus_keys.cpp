// `noc.impl: multicast_bus`: the width of each GLB <-> PE-array bus.
#include "arch/config_keys.hpp"

namespace ergon {
namespace {

AcceleratorConfigSection multicast_bus_keys() {
  AcceleratorConfigSection section = config_section("noc", false, {"noc.impl", "multicast_bus"});
  const IntRule words{1, 1 << 16};
  section.prepare = [](YamlMap& map, AcceleratorConfig& /*config*/) {
    if (map.has("psum_bus_words")) {  // one shared psum bus until the read and write paths were split
      map.at("psum_bus_words")
          .fail(
              "noc.psum_bus_words is now two keys, one per direction: psum_read_bus_words (GLB to array) and "
              "psum_write_bus_words (array to GLB)");
    }
  };
  section.keys = {
      int_key<AcceleratorConfig>("noc.filter_bus_words", ERGON_FIELD(noc.filter_bus_words), words, "words/cycle",
                                 "filters per cycle, GLB -> array"),
      int_key<AcceleratorConfig>("noc.ifmap_bus_words", ERGON_FIELD(noc.ifmap_bus_words), words, "words/cycle",
                                 "ifmaps per cycle, GLB -> array"),
      int_key<AcceleratorConfig>("noc.psum_read_bus_words", ERGON_FIELD(noc.psum_read_bus_words), words, "words/cycle",
                                 "partial sums per cycle, GLB -> array (to accumulate onto)"),
      int_key<AcceleratorConfig>("noc.psum_write_bus_words", ERGON_FIELD(noc.psum_write_bus_words), words,
                                 "words/cycle",
                                 "partial sums and results per cycle, array -> GLB; the former single "
                                 "`noc.psum_bus_words` is rejected with a hint"),
  };
  return section;
}

}  // namespace
}  // namespace ergon

ERGON_REGISTER(ergon::AcceleratorConfigSection, "multicast_bus noc", ergon::multicast_bus_keys(),
               ergon::config_order::kNocPlugin)
