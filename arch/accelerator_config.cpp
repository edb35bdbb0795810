#include "arch/accelerator_config.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "arch/components.hpp"
#include "arch/dram_presets.hpp"
#include "common/text.hpp"
#include "common/yaml_view.hpp"

namespace ergon {
namespace {

std::string get_choice(YamlMap& map, const std::string& key, const std::string& fallback,
                       const std::vector<std::string>& choices) {
  const auto view = map.find(key);
  if (!view) return fallback;
  const std::string value = view->as_string();
  if (std::find(choices.begin(), choices.end(), value) != choices.end()) return value;
  const std::string suggestion = closest_match(value, choices);
  view->fail("unknown " + key + " '" + value + "'; " +
             (suggestion.empty() ? "known: " + join_alternatives(choices) : "did you mean '" + suggestion + "'?"));
}

int get_word_bits(YamlMap& map, const std::string& key, int fallback) {
  const auto view = map.find(key);
  if (!view) return fallback;
  const std::int64_t bits = view->as_int();
  if (bits != 8 && bits != 16) view->fail(fmt::format("word width must be 8 or 16 bits (got {})", bits));
  return static_cast<int>(bits);
}

ClockConfig parse_clock(YamlMap map) {
  ClockConfig clock;
  clock.frequency_mhz = map.get_number("frequency_mhz", NumberRule{0.001, 100000.0, false});
  clock.voltage_v = map.get_number("voltage_v", NumberRule{0.0, 5.0, true});
  map.reject_unknown_keys();
  return clock;
}

RegisterFileConfig parse_rf(YamlMap map) {
  RegisterFileConfig rf;
  const IntRule entries{1, 1 << 20};
  rf.filter_entries = map.get_int("filter_entries", entries);
  rf.ifmap_entries = map.get_int("ifmap_entries", entries);
  rf.psum_entries = map.get_int("psum_entries", entries);
  map.reject_unknown_keys();
  return rf;
}

PeArrayConfig parse_pe_array(YamlMap map) {
  PeArrayConfig array;
  const IntRule dimension{1, 1 << 16};
  array.impl = get_choice(map, "impl", array.impl, pe_array_impl_names());
  array.rows = map.get_int("rows", dimension);
  array.cols = map.get_int("cols", dimension);
  array.word_bits = get_word_bits(map, "word_bits", array.word_bits);
  if (array.impl == "systolic") {
    array.dataflow = get_choice(map, "dataflow", "os", {"os", "ws", "is"});
    if (map.has("rf")) map.at("rf").fail("a systolic array has no per-PE register files to configure");
  } else {
    if (map.has("dataflow")) map.at("dataflow").fail("only systolic arrays choose a dataflow");
    array.rf = parse_rf(map.get_map("rf"));
  }
  map.reject_unknown_keys();
  return array;
}

GlbConfig parse_glb(YamlMap map) {
  GlbConfig glb;
  glb.impl = get_choice(map, "impl", glb.impl, glb_impl_names());
  glb.size_kib = map.get_number("size_kib", NumberRule{0.0, 1 << 30, true});
  glb.filter_size_kib = map.get_number("filter_size_kib", glb.filter_size_kib, NumberRule{0.0, 1 << 30, false});
  glb.ofmap_size_kib = map.get_number("ofmap_size_kib", glb.ofmap_size_kib, NumberRule{0.0, 1 << 30, false});
  if (glb.ofmap_size_kib >= glb.size_kib) map.at("ofmap_size_kib").fail("must be smaller than glb.size_kib");
  glb.banks = map.get_int("banks", glb.banks, IntRule{1, 1 << 16});
  glb.bank_width_bits = map.get_int("bank_width_bits", glb.bank_width_bits, IntRule{8, 4096});
  glb.read_ports_per_bank = map.get_int("read_ports_per_bank", glb.read_ports_per_bank, IntRule{1, 64});
  glb.write_ports_per_bank = map.get_int("write_ports_per_bank", glb.write_ports_per_bank, IntRule{1, 64});
  map.reject_unknown_keys();
  return glb;
}

NocConfig parse_noc(YamlMap map) {
  NocConfig noc;
  const IntRule words{1, 1 << 16};
  noc.impl = get_choice(map, "impl", noc.impl, noc_impl_names());
  noc.filter_bus_words = map.get_int("filter_bus_words", noc.filter_bus_words, words);
  noc.ifmap_bus_words = map.get_int("ifmap_bus_words", noc.ifmap_bus_words, words);
  noc.psum_bus_words = map.get_int("psum_bus_words", noc.psum_bus_words, words);
  map.reject_unknown_keys();
  return noc;
}

DramConfig parse_dram(YamlMap map) {
  DramConfig dram;
  const YamlView preset_view = map.at("preset");
  dram.preset = preset_view.as_string();
  const DramPreset* preset = find_dram_preset(dram.preset);
  if (preset == nullptr) {
    std::vector<std::string> names;
    for (const auto& known : dram_presets()) names.push_back(known.name);
    const std::string suggestion = closest_match(dram.preset, names);
    preset_view.fail(
        "unknown DRAM preset '" + dram.preset + "'; " +
        (suggestion.empty() ? "known: " + join_alternatives(names) : "did you mean '" + suggestion + "'?"));
  }
  dram.impl = get_choice(map, "impl", dram.impl, dram_impl_names());
  dram.word_bits = get_word_bits(map, "word_bits", dram.word_bits);
  const auto preset_or_required = [&](const std::string& key, const std::optional<double>& value, NumberRule rule) {
    if (value && !map.has(key)) return *value;
    if (!map.has(key)) map.view().fail("missing '" + key + "' (DRAM preset '" + dram.preset + "' gives none)");
    return map.get_number(key, rule);
  };
  dram.bandwidth_gbps = preset_or_required("bandwidth_gbps", preset->bandwidth_gbps, NumberRule{0.001, 1e6, false});
  dram.latency_ns = preset_or_required("latency_ns", preset->latency_ns, NumberRule{0.0, 1e6, false});
  dram.energy_pj_per_bit = map.get_number("energy_pj_per_bit", preset->energy_pj_per_bit.value_or(0.0), kNonNegative);
  dram.request_queue_depth = map.get_int("request_queue_depth", dram.request_queue_depth, IntRule{1, 1 << 20});
  map.reject_unknown_keys();
  return dram;
}

EnergyConfig parse_energy(YamlMap map) {
  EnergyConfig energy;
  energy.table = map.get_string("table", energy.table);
  if (energy.table.empty()) map.at("table").fail("give a table name or a path to a .yaml table");
  map.reject_unknown_keys();
  return energy;
}

}  // namespace

AcceleratorConfig load_accelerator_config(const std::string& path, const std::vector<std::string>& overrides) {
  auto origin = std::make_shared<YamlOrigin>(YamlOrigin{path, {}});
  YAML::Node root_node = load_yaml_file(path);
  apply_overrides(root_node, overrides, *origin);
  YamlMap root(YamlView(root_node, origin, ""));
  AcceleratorConfig config;
  config.file = path;
  config.name = root.get_string("name");
  config.description = root.get_string("description", "");
  config.clock = parse_clock(root.get_map("clock"));
  config.pe_array = parse_pe_array(root.get_map("pe_array"));
  config.glb = parse_glb(root.get_map("glb"));
  if (root.has("noc")) config.noc = parse_noc(root.get_map("noc"));
  config.dram = parse_dram(root.get_map("dram"));
  if (config.pe_array.impl == "systolic" && config.glb.filter_size_kib <= 0) {
    root.get_map("glb").view().fail("a systolic array needs a filter buffer: set filter_size_kib");
  }
  if (root.has("energy")) config.energy = parse_energy(root.get_map("energy"));
  root.reject_unknown_keys();
  return config;
}

}  // namespace ergon
