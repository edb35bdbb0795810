// `dram.impl: banked`: the page policy and address mapping; bandwidth and latency follow from the preset's
// bank-level description, the price per bit from its currents (power/dram/drampower_keys.cpp; docs/dram.md).
#include "arch/config_keys.hpp"
#include "arch/dram/banked/address_mapping.hpp"
#include "arch/dram/banked/dram_specs.hpp"

namespace ergon {
namespace {

const DramSpec& spec_of(const AcceleratorConfig& config) {
  return *find_dram_spec(config.dram.preset);  // checked by `prepare`
}

// The preset must have a bank-level description; the figures it gives must not be set as well.
void derive_from_preset(YamlMap& map, AcceleratorConfig& config) {
  DramConfig& dram = config.dram;
  const DramSpec* spec = find_dram_spec(dram.preset);
  if (spec == nullptr) {
    std::vector<std::string> names;
    for (const auto& known : dram_specs()) names.push_back(known.name);
    map.at("impl").fail("banked needs a preset with a bank-level description (" + join_alternatives(names) + "); '" +
                        dram.preset + "' has none");
  }
  for (const char* key : {"bandwidth_gbps", "latency_ns", "energy_pj_per_bit"}) {
    if (map.has(key)) {
      map.at(key).fail(std::string("with dram.impl: banked, ") + key +
                       " follows from the preset's organisation, timing and currents (docs/dram.md); remove it "
                       "(on the command line: --set dram." +
                       key + "=~)");
    }
  }
  dram.bandwidth_gbps = spec->peak_bandwidth_gbps();
  dram.latency_ns = (spec->timing.rcd + spec->timing.cl) * spec->timing.tck_ns;
  // energy_pj_per_bit: power/dram/drampower_keys.cpp prices it from the preset's currents.
}

AcceleratorConfigKey address_mapping_key() {
  AcceleratorConfigKey key =
      text_key<AcceleratorConfig>("dram.address_mapping", ERGON_FIELD(dram.address_mapping),
                                  "Ramulator-style field string: Ro, Ra, Bg, Ba, Co, Ch, most significant first");
  key.load = [](YamlMap& map, AcceleratorConfig& config) {
    const auto view = map.find("address_mapping");
    if (!view) return;
    config.dram.address_mapping = view->as_string();
    try {
      DramAddressMapping(config.dram.address_mapping, spec_of(config).organisation);
    } catch (const std::invalid_argument& error) {
      view->fail(error.what());
    }
  };
  return key;
}

AcceleratorConfigSection banked_dram_keys() {
  AcceleratorConfigSection section = config_section("dram", false, {"dram.impl", "banked"});
  section.derives = {"bandwidth_gbps", "latency_ns", "energy_pj_per_bit"};
  section.prepare = derive_from_preset;
  section.keys = {
      choice_key<AcceleratorConfig>(
          "dram.page_policy", ERGON_FIELD(dram.page_policy),
          ChoiceNames<PagePolicy>{{"open", PagePolicy::kOpen}, {"closed", PagePolicy::kClosed}},
          "rows stay open until needed, or close after each access"),
      address_mapping_key(),
  };
  // A free first fill takes data as arrived before the layer; a bank-level model's banks have state.
  section.check = [](YamlMap& /*dram*/, YamlMap& root, AcceleratorConfig& config) {
    if (config.glb.first_fill != FirstFill::kFree) return;
    root.get_map("glb")
        .at("first_fill")
        .fail(
            "a free first fill takes data as arrived before the layer, which a bank-level DRAM cannot; use "
            "dram.impl: streams or simple");
  };
  return section;
}

}  // namespace
}  // namespace ergon

ERGON_REGISTER(ergon::AcceleratorConfigSection, "banked dram", ergon::banked_dram_keys(),
               ergon::config_order::kDramPlugin)
