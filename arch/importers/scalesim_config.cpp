#include "arch/importers/scalesim_config.hpp"

#include <fmt/format.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "arch/accelerator_config.hpp"
#include "common/input_error.hpp"
#include "common/input_text.hpp"
#include "common/text.hpp"

namespace ergon {
namespace {

std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

struct Entry {
  std::string value;
  int line = 0;
};

// The limits are those of the Ergon config the .cfg converts into (arch/accelerator_config.hpp), so that
// whatever the reader accepts loads, and every error names a line of the user's .cfg rather than the
// generated YAML.
struct Limit {
  double minimum, maximum;
  const char* what;  // for the message
};
constexpr Limit kArrayDimension{1, kMaxArraySide, "a whole number of PEs"};
constexpr Limit kSramKib{1e-3, kMaxGlbKib / 2, "a size in KiB"};  // the ifmap and ofmap SRAMs share glb.size_kib
constexpr Limit kBandwidthWordsPerCycle{kMinDramBandwidthGbps, kMaxDramBandwidthGbps,
                                        "a number of words per cycle"};  // 1-byte words at 1 GHz: GB/s

double number_within(const std::string& path, const std::string& key, const Entry& entry, const Limit& limit) {
  const std::optional<double> value = parse_finite_number(entry.value);
  if (!value || *value < limit.minimum || *value > limit.maximum) {
    throw InputError(
        {path, entry.line, 1, {}}, key,
        fmt::format("expected {} from {} to {}, got '{}'", limit.what, limit.minimum, limit.maximum, entry.value));
  }
  return *value;
}

std::int64_t array_dimension(const std::string& path, const std::string& key, const Entry& entry) {
  const double value = number_within(path, key, entry, kArrayDimension);
  if (value != static_cast<double>(static_cast<std::int64_t>(value))) {
    throw InputError({path, entry.line, 1, {}}, key, "expected a whole number of PEs, got '" + entry.value + "'");
  }
  return static_cast<std::int64_t>(value);
}

// Each SRAM must hold Ergon's systolic_wavefront_words; SCALE-Sim's words are 1 byte.
void check_wavefront(const std::string& path, const std::string& key, const Entry& entry, double kib,
                     const ScaleSimConfig& config) {
  const std::int64_t wavefront_bytes = systolic_wavefront_words(config.array_height, config.array_width);
  if (kib * 1024 < static_cast<double>(wavefront_bytes)) {
    throw InputError({path, entry.line, 1, {}}, key,
                     fmt::format("{} KiB holds less than one operand wavefront of the array, double-buffered ({} "
                                 "one-byte words); use at least {} KiB",
                                 entry.value, wavefront_bytes, static_cast<double>(wavefront_bytes) / 1024));
  }
}

const Entry& required(const std::map<std::string, Entry>& entries, const std::string& path, const std::string& key) {
  const std::size_t dot = key.find('.');
  const auto found = entries.find(key.substr(0, dot + 1) + ascii_lower(key.substr(dot + 1)));
  if (found == entries.end()) {
    throw InputError(
        {path, 0, 0, {}}, key,
        fmt::format("missing; SCALE-Sim needs '{}' in the [{}] section", key.substr(dot + 1), key.substr(0, dot)));
  }
  return found->second;
}

}  // namespace

namespace {

// "section.key" (key lower-cased, as configparser does) -> value and line; a repeated section or key is the
// error configparser raises (strict mode, SCALE-Sim's), not a silent override.
std::map<std::string, Entry> read_entries(const std::string& path, const std::string& file_text) {
  std::istringstream stream(file_text);
  std::map<std::string, Entry> entries;
  std::map<std::string, int> section_lines;
  std::string section, text, last_key;
  for (int line = 1; std::getline(stream, text); ++line) {
    if (line == 1 && text.rfind("\xEF\xBB\xBF", 0) == 0) text = text.substr(3);
    const std::string stripped = trim(text);
    if (stripped.empty() || stripped[0] == '#' || stripped[0] == ';') continue;
    if (!last_key.empty() && (text[0] == ' ' || text[0] == '\t')) {  // a continuation of the previous value
      entries[last_key].value += "\n" + stripped;
      continue;
    }
    const std::string content = trim(text.substr(0, text.find('#')));
    if (content.front() == '[') {
      if (content.back() != ']') throw InputError({path, line, 1, {}}, "", "a section header needs a closing ]");
      section = trim(content.substr(1, content.size() - 2));
      const auto [earlier, added] = section_lines.emplace(section, line);
      if (!added) {
        throw InputError(
            {path, line, 1, {}}, "[" + section + "]",
            fmt::format("the section repeats line {} (SCALE-Sim's configparser rejects this too)", earlier->second));
      }
      last_key.clear();
      continue;
    }
    const auto separator = content.find_first_of(":=");
    if (separator == std::string::npos) throw InputError({path, line, 1, {}}, "", "expected 'Key: value'");
    const std::string key = section + "." + ascii_lower(trim(content.substr(0, separator)));
    const auto [earlier, added] = entries.emplace(key, Entry{trim(content.substr(separator + 1)), line});
    if (!added) {
      throw InputError({path, line, 1, {}}, trim(content.substr(0, separator)),
                       fmt::format("the key repeats line {} in [{}] (SCALE-Sim's configparser rejects this too)",
                                   earlier->second.line, section));
    }
    last_key = key;
  }
  return entries;
}

// Keys SCALE-Sim v2 or v3 reads (or ships) that Ergon does not model, and what that means.
const std::map<std::string, std::string>& unmodelled_keys() {
  static const std::map<std::string, std::string> keys = {
      {"run_presets.useramulatortrace", "Ergon's own DRAM model replaces Ramulator traces (see dram.impl: banked)"},
      {"architecture_presets.readrequestbuffer", "DRAM request buffers are not modelled"},
      {"architecture_presets.writerequestbuffer", "DRAM request buffers are not modelled"},
      {"layout.ifmapcustomlayout", "SRAM bank layouts are not modelled"},
      {"layout.filtercustomlayout", "SRAM bank layouts are not modelled"},
      {"layout.ifmapsrambankbandwidth", "SRAM bank layouts are not modelled"},
      {"layout.ifmapsrambanknum", "SRAM bank layouts are not modelled"},
      {"layout.ifmapsrambankport", "SRAM bank layouts are not modelled"},
      {"layout.filtersrambankbandwidth", "SRAM bank layouts are not modelled"},
      {"layout.filtersrambanknum", "SRAM bank layouts are not modelled"},
      {"layout.filtersrambankport", "SRAM bank layouts are not modelled"},
      {"sparsity.sparsitysupport", "sparse (N:M) operands are not modelled: layers run dense"},
      {"sparsity.sparserep", "sparse (N:M) operands are not modelled: layers run dense"},
      {"sparsity.optimizedmapping", "sparse (N:M) operands are not modelled: layers run dense"},
      {"sparsity.blocksize", "sparse (N:M) operands are not modelled: layers run dense"},
      {"sparsity.randomnumbergeneratorseed", "sparse (N:M) operands are not modelled: layers run dense"}};
  return keys;
}

const std::set<std::string>& modelled_keys() {
  static const std::set<std::string> keys = {"general.run_name",
                                             "run_presets.interfacebandwidth",
                                             "architecture_presets.arrayheight",
                                             "architecture_presets.arraywidth",
                                             "architecture_presets.ifmapsramszkb",
                                             "architecture_presets.filtersramszkb",
                                             "architecture_presets.ofmapsramszkb",
                                             "architecture_presets.dataflow",
                                             "architecture_presets.bandwidth"};
  return keys;
}

// Keys that cannot change what SCALE-Sim or Ergon computes: DRAM address offsets (timing does not depend on
// where a tensor lives) and keys SCALE-Sim ships but never reads.
bool timing_neutral(const std::string& key) {
  return key.find("offset") != std::string::npos || key.find("memorybank") != std::string::npos ||
         key == "network_presets.topologycsvloc";
}

// A disabled feature ("False") is modelled by not modelling it, and so are the settings of a disabled
// section (sparsity without SparsitySupport, bank layouts without a custom layout); anything else Ergon
// ignores is named.
std::vector<std::string> unmodelled_warnings(const std::string& path, const std::map<std::string, Entry>& entries) {
  const auto disabled = [&](const std::string& key) {
    const auto found = entries.find(key);
    return found == entries.end() || ascii_lower(found->second.value) == "false";
  };
  const bool sparsity_off = disabled("sparsity.sparsitysupport");
  const bool layout_off = disabled("layout.ifmapcustomlayout") && disabled("layout.filtercustomlayout");
  std::vector<std::string> warnings;
  for (const auto& [key, entry] : entries) {
    const std::string section = key.substr(0, key.find('.'));
    if (modelled_keys().count(key) > 0 || ascii_lower(entry.value) == "false" || timing_neutral(key)) continue;
    if ((section == "sparsity" && sparsity_off) || (section == "layout" && layout_off)) continue;
    const auto known = unmodelled_keys().find(key);
    warnings.push_back(fmt::format("{}:{}: [{}] {} = {} is not modelled by Ergon ({})", path, entry.line, section,
                                   key.substr(key.find('.') + 1), entry.value,
                                   known != unmodelled_keys().end() ? known->second : "a key SCALE-Sim does not read"));
  }
  return warnings;
}

}  // namespace

ScaleSimConfig read_scalesim_config(const std::string& path) {
  const std::string file_text =
      read_input_text(path, "a SCALE-Sim .cfg file ([architecture_presets] with ArrayHeight: ... lines)");
  std::map<std::string, Entry> entries = read_entries(path, file_text);
  ScaleSimConfig config;
  const std::string arch = "architecture_presets";
  config.run_name = entries.count("general.run_name") ? entries["general.run_name"].value : "scalesim";
  config.array_height = array_dimension(path, "ArrayHeight", required(entries, path, arch + ".ArrayHeight"));
  config.array_width = array_dimension(path, "ArrayWidth", required(entries, path, arch + ".ArrayWidth"));
  const auto sram_kib = [&](const std::string& key) {
    const Entry& entry = required(entries, path, arch + "." + key);
    const double kib = number_within(path, key, entry, kSramKib);
    check_wavefront(path, key, entry, kib, config);
    return kib;
  };
  config.ifmap_sram_kib = sram_kib("IfmapSramSzkB");
  config.filter_sram_kib = sram_kib("FilterSramSzkB");
  config.ofmap_sram_kib = sram_kib("OfmapSramSzkB");
  const Entry& dataflow = required(entries, path, arch + ".Dataflow");
  config.dataflow = ascii_lower(dataflow.value);
  if (config.dataflow != "os" && config.dataflow != "ws" && config.dataflow != "is") {
    throw InputError({path, dataflow.line, 1, {}}, "Dataflow", "expected os, ws or is, got '" + dataflow.value + "'");
  }
  const auto mode = entries.find("run_presets.interfacebandwidth");
  config.calc_bandwidth = mode == entries.end() || mode->second.value == "CALC";
  if (mode != entries.end() && mode->second.value != "CALC" && mode->second.value != "USER") {
    throw InputError({path, mode->second.line, 1, {}}, "InterfaceBandwidth",
                     "expected CALC or USER, got '" + mode->second.value + "'");
  }
  if (!config.calc_bandwidth) {
    // SCALE-Sim uses the first entry for every buffer.
    const Entry& bandwidth = required(entries, path, arch + ".Bandwidth");
    config.bandwidth_words_per_cycle =
        number_within(path, "Bandwidth", {trim(bandwidth.value.substr(0, bandwidth.value.find(','))), bandwidth.line},
                      kBandwidthWordsPerCycle);
  }
  config.warnings = unmodelled_warnings(path, entries);
  return config;
}

std::string scalesim_config_yaml(const ScaleSimConfig& c, const std::string& source_path) {
  const double bandwidth_gbps = c.calc_bandwidth ? 1e6 : c.bandwidth_words_per_cycle;  // 1-byte words at 1 GHz
  return fmt::format(
      "# Imported from a SCALE-Sim configuration by `ergon import scalesim` ({}).\n"
      "# 1 GHz (SCALE-Sim counts cycles only), 1-byte words; {}.\n"
      "name: {}\n"
      "description: \"SCALE-Sim {}x{} {} array\"\n"
      "clock: {{frequency_mhz: 1000, voltage_v: 1.0}}\n"
      "pe_array: {{impl: systolic, dataflow: {}, rows: {}, cols: {}, word_bits: 8}}\n"
      "glb: {{size_kib: {}, ofmap_size_kib: {}, filter_size_kib: {}, banks: {}, bank_width_bits: 64}}\n"
      "dram: {{preset: custom, word_bits: 8, bandwidth_gbps: {}, latency_ns: 0}}\n"
      "energy: {{table: cnnergy_65nm}}\n",
      csv_quoted(source_path),
      c.calc_bandwidth ? "InterfaceBandwidth CALC: a DRAM too fast to stall"
                       : fmt::format("InterfaceBandwidth USER: {} words per cycle", c.bandwidth_words_per_cycle),
      nlohmann::json(c.run_name).dump(), c.array_height, c.array_width, c.dataflow, c.dataflow, c.array_height,
      c.array_width, c.ifmap_sram_kib + c.ofmap_sram_kib, c.ofmap_sram_kib, c.filter_sram_kib,
      std::max<std::int64_t>(c.array_height, c.array_width), bandwidth_gbps);
}

}  // namespace ergon
