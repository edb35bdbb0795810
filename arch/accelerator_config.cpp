#include "arch/accelerator_config.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include "arch/components.hpp"
#include "arch/dataflows/registry.hpp"
#include "arch/dram/banked/address_mapping.hpp"
#include "arch/dram/banked/dram_energy.hpp"
#include "arch/dram/banked/dram_specs.hpp"
#include "arch/dram_presets.hpp"
#include "common/energy_bounds.hpp"
#include "common/text.hpp"
#include "common/yaml_view.hpp"

namespace ergon {
namespace {

std::string get_choice(YamlMap& map, const std::string& key, const std::string& fallback,
                       const std::vector<std::string>& choices) {
  const auto view = map.find(key);
  if (!view) return fallback;
  const std::string value = view->as_string();
  for (const std::string& choice : choices) {  // case-insensitive; the canonical spelling is kept
    if (ascii_lower(choice) == ascii_lower(value)) return choice;
  }
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
  rf.filter_double_buffered = map.get_bool("filter_double_buffered", rf.filter_double_buffered);
  map.reject_unknown_keys();
  return rf;
}

std::vector<std::string> impls_with_dataflow_choice() {
  std::vector<std::string> impls;
  for (const std::string& name : dataflow_names()) {
    PeArrayConfig array;
    array.impl = name;
    if (!dataflow_of(array).variants().empty()) impls.push_back(name);
  }
  return impls;
}

PeArrayConfig parse_pe_array(YamlMap map) {
  PeArrayConfig array;
  const IntRule dimension{1, kMaxArraySide};
  array.impl = get_choice(map, "impl", array.impl, dataflow_names());
  array.rows = map.get_int("rows", dimension);
  array.cols = map.get_int("cols", dimension);
  array.word_bits = get_word_bits(map, "word_bits", array.word_bits);
  const IDataflow& dataflow = dataflow_of(array);
  const std::vector<std::string> variants = dataflow.variants();
  if (!variants.empty()) {
    array.dataflow = get_choice(map, "dataflow", variants.front(), variants);
  } else if (map.has("dataflow")) {
    map.at("dataflow")
        .fail("a " + array.impl + " array has one dataflow; remove it, or set impl to an array with a choice (" +
              join_alternatives(impls_with_dataflow_choice()) + ")");
  }
  if (dataflow.has_register_files()) {
    array.rf = parse_rf(map.get_map("rf"));
  } else if (map.has("rf")) {
    map.at("rf").fail("a " + array.impl + " array has no per-PE register files to configure; remove rf");
  }
  map.reject_unknown_keys();
  return array;
}

GlbConfig parse_glb(YamlMap map) {
  GlbConfig glb;
  glb.impl = get_choice(map, "impl", glb.impl, glb_impl_names());
  glb.size_kib = map.get_number("size_kib", NumberRule{0.0, kMaxGlbKib, true});
  glb.filter_size_kib = map.get_number("filter_size_kib", glb.filter_size_kib, NumberRule{0.0, kMaxGlbKib, false});
  glb.ofmap_size_kib = map.get_number("ofmap_size_kib", glb.ofmap_size_kib, NumberRule{0.0, kMaxGlbKib, false});
  if (glb.ofmap_size_kib >= glb.size_kib) map.at("ofmap_size_kib").fail("must be smaller than glb.size_kib");
  glb.banks = map.get_int("banks", glb.banks, IntRule{1, 1 << 16});
  glb.bank_width_bits = map.get_int("bank_width_bits", glb.bank_width_bits, IntRule{8, 4096});
  glb.read_ports_per_bank = map.get_int("read_ports_per_bank", glb.read_ports_per_bank, IntRule{1, 64});
  glb.write_ports_per_bank = map.get_int("write_ports_per_bank", glb.write_ports_per_bank, IntRule{1, 64});
  glb.operand_fetch = get_choice(map, "operand_fetch", glb.operand_fetch, {"tensors", "im2col"});
  glb.first_fill = get_choice(map, "first_fill", glb.first_fill, {"timed", "free"});
  glb.prefetch = get_choice(map, "prefetch", glb.prefetch, {"double_buffered", "run_ahead"});
  map.reject_unknown_keys();
  return glb;
}

NocConfig parse_noc(YamlMap map) {
  NocConfig noc;
  const IntRule words{1, 1 << 16};
  noc.impl = get_choice(map, "impl", noc.impl, noc_impl_names());
  noc.filter_bus_words = map.get_int("filter_bus_words", noc.filter_bus_words, words);
  noc.ifmap_bus_words = map.get_int("ifmap_bus_words", noc.ifmap_bus_words, words);
  if (map.has("psum_bus_words")) {  // one shared psum bus until the read and write paths were split
    map.at("psum_bus_words")
        .fail(
            "noc.psum_bus_words is now two keys, one per direction: psum_read_bus_words (GLB to array) and "
            "psum_write_bus_words (array to GLB)");
  }
  noc.psum_read_bus_words = map.get_int("psum_read_bus_words", noc.psum_read_bus_words, words);
  noc.psum_write_bus_words = map.get_int("psum_write_bus_words", noc.psum_write_bus_words, words);
  map.reject_unknown_keys();
  return noc;
}

// `impl: banked` takes its bandwidth, latency and energy from the preset's bank-level description.
void parse_banked_dram(YamlMap& map, DramConfig& dram) {
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
  dram.energy_pj_per_bit = streaming_read_pj_per_bit(*spec);  // prices for the mapper; the model counts its own
  dram.request_queue_depth = map.get_int("request_queue_depth", dram.request_queue_depth, IntRule{1, 1 << 20});
  dram.page_policy = get_choice(map, "page_policy", dram.page_policy, {"open", "closed"});
  if (map.has("address_mapping")) {
    const YamlView view = map.at("address_mapping");
    dram.address_mapping = view.as_string();
    try {
      DramAddressMapping(dram.address_mapping, spec->organisation);
    } catch (const std::invalid_argument& error) {
      view.fail(error.what());
    }
  }
  map.reject_unknown_keys();
}

DramConfig parse_dram(YamlMap map) {
  DramConfig dram;
  const YamlView preset_view = map.at("preset");
  dram.preset = preset_view.as_string();
  const DramPreset* preset = find_dram_preset(dram.preset);
  if (preset != nullptr) dram.preset = preset->name;  // the canonical spelling
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
  if (dram.impl == "banked") {
    parse_banked_dram(map, dram);
    return dram;
  }
  for (const char* key : {"page_policy", "address_mapping"}) {
    if (map.has(key)) map.at(key).fail(std::string("dram.") + key + " applies to dram.impl: banked only");
  }
  const auto preset_or_required = [&](const std::string& key, const std::optional<double>& value, NumberRule rule) {
    if (value && !map.has(key)) return *value;
    if (!map.has(key)) map.view().fail("missing '" + key + "' (DRAM preset '" + dram.preset + "' gives none)");
    return map.get_number(key, rule);
  };
  dram.bandwidth_gbps = preset_or_required("bandwidth_gbps", preset->bandwidth_gbps,
                                           NumberRule{kMinDramBandwidthGbps, kMaxDramBandwidthGbps, false});
  dram.latency_ns = preset_or_required("latency_ns", preset->latency_ns, NumberRule{0.0, 1e6, false});
  dram.energy_pj_per_bit =
      map.get_number("energy_pj_per_bit", preset->energy_pj_per_bit.value_or(0.0), kEnergyPerAccessPj);
  dram.request_queue_depth = map.get_int("request_queue_depth", dram.request_queue_depth, IntRule{1, 1 << 20});
  map.reject_unknown_keys();
  return dram;
}

// An ascending table of (value, voltage) levels whose highest entry is the nominal operating point.
template <typename Level>
std::vector<Level> parse_levels(const YamlView& view, const char* value_key, double Level::*value, double nominal,
                                const std::string& nominal_key, const char* unit, double min_voltage_v) {
  std::vector<Level> levels;
  for (const YamlView& item : view.items()) {
    YamlMap map(item);
    Level level;
    level.*value = map.get_number(value_key, kPositive);
    level.voltage_v = map.get_number("voltage_v", NumberRule{0.0, 5.0, true});
    if (level.voltage_v < min_voltage_v) {
      map.at("voltage_v")
          .fail(fmt::format("{} V is below the domain's min_voltage_v ({} V)", level.voltage_v, min_voltage_v));
    }
    map.reject_unknown_keys();
    if (!levels.empty() && (level.*value <= levels.back().*value || level.voltage_v < levels.back().voltage_v)) {
      item.fail(fmt::format("levels must rise in {} with non-decreasing voltage: ({} {}, {} V) follows ({} {}, {} V)",
                            value_key, level.*value, unit, level.voltage_v, levels.back().*value, unit,
                            levels.back().voltage_v));
    }
    levels.push_back(level);
  }
  if (levels.empty()) view.fail("give at least one level");
  if (std::abs(levels.back().*value - nominal) > 1e-9 * nominal) {
    view.fail(fmt::format("the highest level ({} {}) must be the nominal {} ({} {})", levels.back().*value, unit,
                          nominal_key, nominal, unit));
  }
  return levels;
}

// A level switch of at most a second (silicon takes microseconds): a longer one only runs into SystemC's time
// limit (arch/simulated_time.hpp) after a few switches.
constexpr NumberRule kSwitchOverheadUs{0.0, 1e6, false};

void parse_compute_domain(YamlMap map, const ClockConfig& clock, DvfsConfig& dvfs) {
  dvfs.compute_switch_overhead_us =
      map.get_number("switch_overhead_us", dvfs.compute_switch_overhead_us, kSwitchOverheadUs);
  dvfs.compute_step_mhz = map.get_number("step_mhz", dvfs.compute_step_mhz, kPositive);
  // The default table has a level every step_mhz: a tiny step would ask for billions of them.
  if (const double levels = std::ceil(clock.frequency_mhz / dvfs.compute_step_mhz); levels > kMaxDvfsLevels) {
    map.at("step_mhz")
        .fail(fmt::format(
            "{} MHz steps up to clock.frequency_mhz ({} MHz) give {:.3g} levels, more than the {} a domain may have; "
            "give a step_mhz of at least {:.6g}",
            dvfs.compute_step_mhz, clock.frequency_mhz, levels, kMaxDvfsLevels,
            clock.frequency_mhz / static_cast<double>(kMaxDvfsLevels)));
  }
  dvfs.compute_min_voltage_v = map.get_number("min_voltage_v", dvfs.compute_min_voltage_v, NumberRule{0.0, 5.0});
  if (map.has("min_voltage_v") && dvfs.compute_min_voltage_v > clock.voltage_v) {
    map.at("min_voltage_v")
        .fail(fmt::format("{} V is above the nominal clock.voltage_v ({} V): the domain's range must contain it",
                          dvfs.compute_min_voltage_v, clock.voltage_v));
  }
  if (const auto levels = map.find("levels")) {
    if (map.has("step_mhz")) map.at("step_mhz").fail("give either a levels table or step_mhz, not both");
    dvfs.compute_levels =
        parse_levels<ComputeLevel>(*levels, "frequency_mhz", &ComputeLevel::frequency_mhz, clock.frequency_mhz,
                                   "clock.frequency_mhz", "MHz", dvfs.compute_min_voltage_v);
    if (std::abs(dvfs.compute_levels.back().voltage_v - clock.voltage_v) > 1e-9) {
      levels->fail(fmt::format("the highest level's voltage ({} V) must be clock.voltage_v ({} V)",
                               dvfs.compute_levels.back().voltage_v, clock.voltage_v));
    }
  }
  map.reject_unknown_keys();
}

void parse_memory_domain(YamlMap map, const DramConfig& dram, DvfsConfig& dvfs) {
  dvfs.memory_switch_overhead_us =
      map.get_number("switch_overhead_us", dvfs.memory_switch_overhead_us, kSwitchOverheadUs);
  if (map.has("steps")) dvfs.memory_steps = map.get_int("steps", IntRule{1, kMaxDvfsLevels});
  dvfs.memory_voltage_v = map.get_number("voltage_v", dvfs.memory_voltage_v, NumberRule{0.0, 5.0, true});
  if (const auto levels = map.find("levels")) {
    if (map.has("steps")) map.at("steps").fail("give either a levels table or steps, not both");
    dvfs.memory_levels = parse_levels<MemoryLevel>(*levels, "bandwidth_gbps", &MemoryLevel::bandwidth_gbps,
                                                   dram.bandwidth_gbps, "dram.bandwidth_gbps", "GB/s", 0.0);
    if (map.has("voltage_v")) map.at("voltage_v").fail("with a levels table, the highest level gives the voltage");
    dvfs.memory_voltage_v = dvfs.memory_levels.back().voltage_v;
  }
  map.reject_unknown_keys();
}

// Defaults. Compute: every step_mhz up to the nominal point, V ~ f (ARADA's assumption) but never below
// min_voltage_v. Memory: the data rates the DRAM preset can be clocked at (or `steps` equal bandwidth
// steps; a custom DRAM has no known rates: 16 steps), all at the DRAM's fixed supply.
void fill_default_levels(const ClockConfig& clock, const DramConfig& dram, DvfsConfig& dvfs) {
  if (dvfs.compute_levels.empty()) {
    for (double f = dvfs.compute_step_mhz; f < clock.frequency_mhz - 1e-9; f += dvfs.compute_step_mhz) {
      dvfs.compute_levels.push_back(
          {f, std::max(dvfs.compute_min_voltage_v, clock.voltage_v * f / clock.frequency_mhz)});
    }
    dvfs.compute_levels.push_back({clock.frequency_mhz, clock.voltage_v});
  }
  if (!dvfs.memory_levels.empty()) return;
  const DramPreset* preset = find_dram_preset(dram.preset);
  if (dvfs.memory_steps == 0 && preset != nullptr && !preset->data_rates_mtps.empty()) {
    const double rated_mtps = preset->data_rates_mtps.back();
    for (double rate_mtps : preset->data_rates_mtps) {
      dvfs.memory_levels.push_back({dram.bandwidth_gbps * rate_mtps / rated_mtps, dvfs.memory_voltage_v});
    }
    return;
  }
  const std::int64_t steps = dvfs.memory_steps > 0 ? dvfs.memory_steps : 16;
  for (std::int64_t step = 1; step <= steps; ++step) {
    const double share = static_cast<double>(step) / static_cast<double>(steps);
    dvfs.memory_levels.push_back({dram.bandwidth_gbps * share, dvfs.memory_voltage_v});
  }
}

DvfsConfig parse_dvfs(YamlMap map, const ClockConfig& clock, const DramConfig& dram) {
  DvfsConfig dvfs;
  if (map.has("compute")) parse_compute_domain(map.get_map("compute"), clock, dvfs);
  if (map.has("memory")) parse_memory_domain(map.get_map("memory"), dram, dvfs);
  map.reject_unknown_keys();
  return dvfs;
}

std::vector<SocRail> default_soc_rails() {
  return {SocRail{"vddcore", true, 0, true, {"cpu", "npu", "internal_ram"}}};
}

bool is_in(const std::string& name, const char* const (&names)[2]) {
  return name == names[0] || name == names[1];
}
bool is_in(const std::string& name, const char* const (&names)[3]) {
  return name == names[0] || name == names[1] || name == names[2];
}

// rails: {name: {voltage: core | voltage_v: V, measured: bool, blocks: [...]}}; every energy block on one rail.
std::vector<SocRail> parse_soc_rails(YamlMap map) {
  std::vector<SocRail> rails;
  std::map<std::string, std::string> rail_of_block;
  for (const auto& entry : map.view().node()) {
    SocRail rail;
    rail.name = entry.first.as<std::string>();
    YamlMap r = map.get_map(rail.name);
    const bool has_voltage = r.has("voltage"), has_fixed = r.has("voltage_v");
    if (has_voltage == has_fixed) r.view().fail("give either `voltage: core` or a fixed `voltage_v`");
    if (has_voltage && r.get_string("voltage") != "core")
      r.at("voltage").fail("the only rail voltage by name is `core`");
    rail.follows_core = has_voltage;
    if (has_fixed) rail.voltage_v = r.get_number("voltage_v", NumberRule{0.0, 5.0, true});
    rail.measured = r.get_bool("measured", rail.measured);
    const YamlView blocks = r.at("blocks");
    for (const YamlView& item : blocks.items()) {
      const std::string block = item.as_string();
      if (!is_in(block, kSocEnergyBlocks) && !is_in(block, kSocTimeOnlyBlocks))
        item.fail("unknown block '" + block + "': give cpu, npu, internal_ram, external_flash or serial");
      if (!rail_of_block.emplace(block, rail.name).second)
        item.fail("block '" + block + "' is already on rail '" + rail_of_block[block] + "'");
      if (is_in(block, kSocTimeOnlyBlocks) && rail.measured)
        item.fail("block '" + block + "' has no energy model: it can only sit on a rail with `measured: false`");
      rail.blocks.push_back(block);
    }
    r.reject_unknown_keys();
    rails.push_back(rail);
  }
  for (const char* block : kSocEnergyBlocks) {
    if (rail_of_block.count(block) == 0) map.view().fail(std::string("put block '") + block + "' on a rail");
  }
  return rails;
}

SocConfig parse_soc(YamlMap map) {
  SocConfig soc;
  YamlMap points = map.get_map("operating_points");
  for (const auto& entry : points.view().node()) {
    const std::string name = entry.first.as<std::string>();
    YamlMap point = points.get_map(name);
    SocOperatingPoint p;
    p.name = name;
    p.core_voltage_v = point.get_number("core_voltage_v", NumberRule{0.0, 5.0, true});
    // The range of clock.frequency_mhz: the NPU clock becomes it, and a clock slower than 1 kHz only
    // reaches SystemC's time limit (arch/simulated_time.hpp) sooner.
    constexpr NumberRule kClockMhz{0.001, 100000.0, false};
    p.cpu_mhz = point.get_number("cpu_mhz", kClockMhz);
    p.npu_mhz = point.get_number("npu_mhz", kClockMhz);
    p.ram_mhz = point.get_number("ram_mhz", kClockMhz);
    point.reject_unknown_keys();
    soc.operating_points.push_back(p);
  }
  if (soc.operating_points.empty()) points.view().fail("give at least one operating point");
  soc.reference_point = map.get_string("reference_point");
  try {
    soc.point(soc.reference_point);
  } catch (const std::invalid_argument& error) {
    map.at("reference_point").fail(error.what());
  }
  soc.ram_bytes_per_cycle = map.get_number("ram_bytes_per_cycle", soc.ram_bytes_per_cycle, kPositive);
  YamlMap cpu = map.get_map("cpu");
  soc.pre_inference_cycles = cpu.get_number("pre_inference_cycles", kNonNegative);
  soc.flash_bytes_per_us = cpu.get_number("flash_bytes_per_us", kPositive);
  soc.post_inference_cycles = cpu.get_number("post_inference_cycles", kNonNegative);
  soc.cycles_per_output = cpu.get_number("cycles_per_output", kNonNegative);
  soc.serial_baud = cpu.get_number("serial_baud", soc.serial_baud, kPositive);
  soc.serial_bytes = cpu.get_number("serial_bytes", soc.serial_bytes, kNonNegative);
  soc.cpu_power_mw = cpu.get_number("power_mw", kNonNegative);
  soc.npu_clock_running = cpu.get_bool("npu_clock_running", soc.npu_clock_running);
  soc.cpu_runs_during_inference = cpu.get_bool("runs_during_inference", soc.cpu_runs_during_inference);
  cpu.reject_unknown_keys();
  if (map.has("static")) {
    YamlMap leakage = map.get_map("static");
    soc.static_power_mw = leakage.get_number("power_mw", soc.static_power_mw, kNonNegative);
    soc.leakage_dibl_slope_mv = leakage.get_number("dibl_slope_mv", soc.leakage_dibl_slope_mv, kPositive);
    leakage.reject_unknown_keys();
  }
  soc.rails = map.has("rails") ? parse_soc_rails(map.get_map("rails")) : default_soc_rails();
  YamlMap npu = map.get_map("npu");
  soc.npu_layer_overhead_cycles = npu.get_number("layer_overhead_cycles", kNonNegative);
  soc.npu_baseline_power_mw = npu.get_number("baseline_power_mw", kNonNegative);
  soc.npu_energy_scale = npu.get_number("energy_scale", kPositive);
  npu.reject_unknown_keys();
  soc.idle_us = map.get_number("idle_us", soc.idle_us, kNonNegative);
  map.reject_unknown_keys();
  return soc;
}

MapperConfig parse_mapper(YamlMap map) {
  MapperConfig mapper;
  mapper.objective = get_choice(map, "objective", mapper.objective, {"energy", "latency", "edp"});
  map.reject_unknown_keys();
  return mapper;
}

// SCALE-Sim's operand traffic needs an array whose buffers stream operand matrices, and a free first fill
// a DRAM that can take data as arrived before the layer (a bank-level model cannot: its banks have state).
void check_operand_traffic(YamlMap& root, const AcceleratorConfig& config) {
  const GlbConfig& glb = config.glb;
  if (!glb.scalesim_operand_traffic()) return;
  YamlMap glb_map = root.get_map("glb");
  const char* key = glb.operand_fetch != "tensors" ? "operand_fetch"
                    : glb.first_fill != "timed"    ? "first_fill"
                                                   : "prefetch";
  if (!dataflow_of(config.pe_array).streams_operands()) {
    glb_map.at(key).fail("a " + config.pe_array.impl +
                         " array fetches tiles, not operand streams; SCALE-Sim's operand traffic needs a systolic "
                         "array (pe_array.impl: systolic)");
  }
  if (glb.first_fill == "free" && config.dram.impl == "banked") {
    glb_map.at("first_fill")
        .fail(
            "a free first fill takes data as arrived before the layer, which a bank-level DRAM cannot; use "
            "dram.impl: streams or simple");
  }
}

EnergyConfig parse_energy(YamlMap map) {
  EnergyConfig energy;
  energy.table = map.get_string("table", energy.table);
  if (energy.table.empty()) map.at("table").fail("give a table name or a path to a .yaml table");
  map.reject_unknown_keys();
  return energy;
}

}  // namespace

const SocRail& SocConfig::rail_of(const std::string& block) const {
  for (const SocRail& rail : rails) {
    for (const std::string& b : rail.blocks) {
      if (b == block) return rail;
    }
  }
  throw std::invalid_argument("no supply rail feeds block '" + block + "'");
}

const SocOperatingPoint& SocConfig::point(const std::string& name) const {
  for (const SocOperatingPoint& p : operating_points) {
    if (p.name == name) return p;
  }
  std::string known;
  for (const SocOperatingPoint& p : operating_points) known += (known.empty() ? "" : ", ") + p.name;
  throw std::invalid_argument("no operating point '" + name + "'; the config has: " + known);
}

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
  dataflow_of(config.pe_array).check_config(root, config);
  check_operand_traffic(root, config);
  if (root.has("dvfs")) config.dvfs = parse_dvfs(root.get_map("dvfs"), config.clock, config.dram);
  fill_default_levels(config.clock, config.dram, config.dvfs);
  if (root.has("soc")) config.soc = parse_soc(root.get_map("soc"));
  if (root.has("energy")) config.energy = parse_energy(root.get_map("energy"));
  if (root.has("mapper")) config.mapper = parse_mapper(root.get_map("mapper"));
  root.reject_unknown_keys();
  return config;
}

OperatingLevels nominal_levels(const AcceleratorConfig& config) {
  return {config.clock.frequency_mhz, config.clock.voltage_v, config.dram.bandwidth_gbps, config.dvfs.memory_voltage_v};
}

}  // namespace ergon
