#include "power/accelergy_ert.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>

#include "common/action_catalogue.hpp"
#include "common/energy_bounds.hpp"
#include "power/accelergy_art.hpp"

namespace ergon {
namespace {

std::string arguments_text(const YAML::Node& arguments) {
  if (!arguments || arguments.IsNull() || (arguments.IsMap() && arguments.size() == 0)) return "";
  YAML::Emitter out;
  out << YAML::Flow << arguments;
  return out.c_str();
}

// The words of a component's last name part, lower case, index ranges dropped: "PE[0..167].weights_spad"
// -> {weights, spad}.
std::set<std::string> leaf_words(const std::string& component) {
  // The last part is what follows the last '.' outside brackets.
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < component.size(); ++i) {
    if (component[i] == '[') ++depth;
    if (component[i] == ']') --depth;
    if (component[i] == '.' && depth == 0) start = i + 1;
  }
  const std::string leaf = component.substr(start);
  std::set<std::string> words;
  std::string word;
  depth = 0;
  for (char c : leaf + "_") {
    if (c == '[') ++depth;
    if (c == ']') {
      --depth;
      continue;
    }
    if (depth > 0) continue;
    if (std::isalnum(static_cast<unsigned char>(c))) {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!word.empty()) {
      words.insert(word);
      word.clear();
    }
  }
  return words;
}

bool has_any(const std::set<std::string>& words, std::initializer_list<const char*> wanted) {
  return std::any_of(wanted.begin(), wanted.end(), [&words](const char* w) { return words.count(w) > 0; });
}

enum class Part { kMac, kRegisterFile, kNoc, kGlb, kDram };

// Which Ergon component an ERT component is, by the words of its name; nothing if none.
std::optional<Part> part_of(const std::string& component) {
  const std::set<std::string> words = leaf_words(component);
  const bool mac =
      std::any_of(words.begin(), words.end(), [](const std::string& w) { return w.find("mac") != std::string::npos; });
  if (mac) return Part::kMac;
  if (has_any(words, {"rf", "regfile", "spad", "scratchpad", "reg", "register", "registers"})) {
    return Part::kRegisterFile;
  }
  if (has_any(words, {"noc", "network", "bus"})) return Part::kNoc;
  if (has_any(words, {"dram", "ddr", "lpddr", "hbm"})) return Part::kDram;
  if (has_any(words, {"glb", "gbuf", "buffer", "globalbuffer", "sram"})) return Part::kGlb;
  return std::nullopt;
}

bool holds_operand(const std::string& component, const std::string& operand) {
  const std::set<std::string> words = leaf_words(component);
  if (operand == "ifmap") return has_any(words, {"ifmap", "ifmaps", "input", "inputs", "iact", "iacts"});
  if (operand == "filter") return has_any(words, {"filter", "filters", "weight", "weights", "wt"});
  if (operand == "psum") return has_any(words, {"psum", "psums", "output", "outputs", "ofmap", "ofmaps", "acc"});
  return false;
}

struct DefaultRule {
  std::string action;  // Ergon's
  Part part;
  const char* operand;  // register files: the operand whose file it is ("" for the others)
  std::vector<std::string> ert_actions;
};

Part part_of_component(std::string_view component) {
  if (component == "mac") return Part::kMac;
  if (component == "rf") return Part::kRegisterFile;
  if (component == "noc") return Part::kNoc;
  if (component == "glb") return Part::kGlb;
  if (component == "dram") return Part::kDram;
  throw std::logic_error("no ERT part for the catalogue's component '" + std::string(component) + "'");
}

// The register file an action's tensor lives in, by the words an ERT names it with.
const char* operand_of(const ActionSpec& action) {
  if (action.component() != "rf") return "";
  switch (action.tensor) {
    case TensorOf::kInputs: return "ifmap";
    case TensorOf::kWeights: return "filter";
    case TensorOf::kOutputs: return "psum";
    default: return "";
  }
}

// The default mapping (docs/energy.md, "Accelergy ERTs"): every energy action of the catalogue, on the
// ERT component of its component's part (and, for register files, its tensor), by its ERT actions.
const std::vector<DefaultRule>& default_rules() {
  static const std::vector<DefaultRule> rules = [] {
    std::vector<DefaultRule> built;
    for (const ActionSpec& action : action_catalogue()) {
      if (!action.energy_action) continue;
      built.push_back({std::string(action.name), part_of_component(action.component()), operand_of(action),
                       std::vector<std::string>(action.ert_actions.begin(), action.ert_actions.end())});
    }
    return built;
  }();
  return rules;
}

class ErtIndex {
 public:
  ErtIndex(std::string path, std::vector<ErtEnergy> energies) : path_(std::move(path)), energies_(std::move(energies)) {
    for (const ErtEnergy& e : energies_) {
      if (std::find(components_.begin(), components_.end(), e.component) == components_.end()) {
        components_.push_back(e.component);
      }
    }
  }
  const std::string& path() const { return path_; }
  const std::vector<std::string>& components() const { return components_; }

  // The energy of `action` of `component`: the entry without arguments, else the largest (the argument
  // values of a random access, e.g. data_delta: 1); nullptr when the component has no such action.
  const ErtEnergy* find(const std::string& component, const std::string& action) const {
    const ErtEnergy* best = nullptr;
    for (const ErtEnergy& e : energies_) {
      if (e.component != component || e.action != action) continue;
      if (e.arguments.empty()) return &e;
      if (best == nullptr || e.pj > best->pj) best = &e;
    }
    return best;
  }

 private:
  std::string path_;
  std::vector<ErtEnergy> energies_;
  std::vector<std::string> components_;
};

void add_note(std::vector<std::string>& notes, const std::string& note) {
  if (std::find(notes.begin(), notes.end(), note) == notes.end()) notes.push_back(note);
}

// The bits one access of a component moves, from its `attributes` (accelergy_ert.hpp); 0 when they give
// none.
int access_bits(YamlMap& component) {
  if (!component.has("attributes") || component.at("attributes").node().IsNull()) return 0;
  YamlMap attributes = component.get_map("attributes");
  if (attributes.has("width")) return static_cast<int>(attributes.get_int("width", kAccessBits));
  for (const char* word_key : {"datawidth", "word_width", "word_bits", "word-bits"}) {
    if (!attributes.has(word_key)) continue;
    const std::int64_t word_bits = attributes.get_int(word_key, kAccessBits);
    std::int64_t words = 1;
    for (const char* block_key : {"block_size", "block-size"}) {
      if (attributes.has(block_key)) words = attributes.get_int(block_key, kAccessBits);
    }
    if (word_bits * words > kAccessBits.max) {
      attributes.view().fail(
          fmt::format("an access of {} words of {} bits is over {} bits", words, word_bits, kAccessBits.max));
    }
    return static_cast<int>(word_bits * words);
  }
  return 0;
}

// The width a data action of `energy`'s component is priced per: the component's own, else a word of
// `word_bits` bits, noted once per component.
int priced_bits(const ErtEnergy& energy, const std::string& ert_path, int word_bits, std::vector<std::string>& notes) {
  if (energy.access_bits > 0) return energy.access_bits;
  add_note(notes, fmt::format("the ERT {} gives no access width for {} (attributes: width, or datawidth and "
                              "block_size): its energies are taken per word of the config's width",
                              ert_path, energy.component));
  return word_bits;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

// The ERT component the default mapping takes for `rule`; nullopt when the ERT has none. Several
// candidates are an error: the user must say which in `accelergy_ert.actions`.
std::optional<std::string> default_component(const ErtIndex& ert, const DefaultRule& rule) {
  std::vector<std::string> candidates;
  for (const auto& component : ert.components()) {
    if (part_of(component) == rule.part) candidates.push_back(component);
  }
  if (candidates.size() > 1 && rule.operand[0] != '\0') {
    std::vector<std::string> of_operand;
    for (const auto& c : candidates) {
      if (holds_operand(c, rule.operand)) of_operand.push_back(c);
    }
    if (of_operand.empty()) return std::nullopt;
    candidates = of_operand;
  }
  if (candidates.empty()) return std::nullopt;
  if (candidates.size() > 1) {
    throw InputError({ert.path(), 0, 0, {}}, "ERT.tables",
                     fmt::format("several components could price '{}': {}; say which in the energy table's "
                                 "accelergy_ert.actions (docs/energy.md)",
                                 rule.action, joined(candidates)));
  }
  return candidates.front();
}

// Prices every action of the default mapping not in `explicit_actions`; unmatched actions cost 0 and are
// noted.
void add_default_actions(const ErtIndex& ert, int word_bits, const std::set<std::string>& explicit_actions,
                         std::vector<ActionEnergy>& actions, std::vector<std::string>& notes) {
  std::vector<std::string> unpriced;
  for (const DefaultRule& rule : default_rules()) {
    if (explicit_actions.count(rule.action) > 0) continue;
    const std::optional<std::string> component = default_component(ert, rule);
    const ErtEnergy* found = nullptr;
    for (const std::string& name : rule.ert_actions) {
      if (component && (found = ert.find(*component, name)) != nullptr) break;
    }
    if (found == nullptr) {
      unpriced.push_back(rule.action);
      actions.push_back({rule.action, 0, {ert.path(), 0, 0, {}}, "ERT.tables"});
      continue;
    }
    const bool data = rule.part != Part::kMac;
    actions.push_back({rule.action, found->pj, found->where, found->key_path,
                       data ? priced_bits(*found, ert.path(), word_bits, notes) : 0});
  }
  if (!unpriced.empty()) {
    add_note(notes,
             fmt::format("the ERT {} has no component or action for {}: priced at 0", ert.path(), joined(unpriced)));
  }
}

const ErtEnergy& find_reference(const ErtIndex& ert, const YamlView& where, const std::string& reference) {
  const auto dot = reference.rfind('.');
  if (dot == std::string::npos) where.fail("give an ERT component.action, e.g. system.PE[0..167].mac.mac_random");
  const std::string component = reference.substr(0, dot), action = reference.substr(dot + 1);
  if (std::find(ert.components().begin(), ert.components().end(), component) == ert.components().end()) {
    where.fail(
        fmt::format("the ERT {} has no component '{}'; it has: {}", ert.path(), component, joined(ert.components())));
  }
  const ErtEnergy* found = ert.find(component, action);
  if (found == nullptr) where.fail(fmt::format("the ERT's component '{}' has no action '{}'", component, action));
  return *found;
}

// `accelergy_ert.actions`: Ergon action -> ERT component.action (per access of the component's width),
// {energy_of, bits_per_access}, or an energy in pJ per count.
std::vector<ActionEnergy> explicit_actions(const ErtIndex& ert, const YamlView& view, int word_bits,
                                           std::vector<std::string>& notes) {
  if (!view.node().IsMap()) view.fail("give a map of Ergon action: ERT component.action");
  std::vector<ActionEnergy> actions;
  for (const auto& item : view.node()) {
    const std::string action = item.first.as<std::string>();
    const YamlView value = view.child(item.second, action);
    if (action.find('.') == std::string::npos) value.fail("an Ergon action is named component.action, e.g. glb.read");
    ActionEnergy entry{action, 0, value.location(), value.path()};
    if (value.node().IsMap()) {
      YamlMap map(value);
      entry.pj = find_reference(ert, map.at("energy_of"), map.get_string("energy_of")).pj;
      entry.bits_per_access = static_cast<int>(map.get_int("bits_per_access", word_bits, kAccessBits));
      map.reject_unknown_keys();
    } else if (value.node().IsScalar() && value.node().as<std::string>().find('.') != std::string::npos &&
               !std::isdigit(static_cast<unsigned char>(value.node().as<std::string>()[0]))) {
      const ErtEnergy& energy = find_reference(ert, value, value.as_string());
      entry.pj = energy.pj;
      entry.bits_per_access = action.rfind("mac.", 0) == 0 ? 0 : priced_bits(energy, ert.path(), word_bits, notes);
    } else {
      entry.pj = value.as_number(kEnergyPerAccessPj);
    }
    actions.push_back(entry);
  }
  return actions;
}

const char* part_name(Part part) {
  switch (part) {
    case Part::kMac: return "mac";
    case Part::kRegisterFile: return "rf";
    case Part::kNoc: return "noc";
    case Part::kGlb: return "glb";
    case Part::kDram: return "dram";
  }
  return "";
}

// The area Accelergy wrote beside a bare ERT (its ART), when there is one. A bare ERT ran before ARTs were
// read, so an ART that cannot give an area leaves the table without one, noted, rather than failing the run.
void add_sibling_art(const std::string& ert_path, EnergyTable& table) {
  const std::string art_path = sibling_art_path(ert_path);
  if (art_path.empty() || !std::filesystem::exists(art_path)) {
    table.area_notes.push_back("no ART beside the ERT " + ert_path);
    return;
  }
  try {
    const YAML::Node document = load_yaml_file(art_path);
    if (!document.IsMap() || !document["ART"]) throw InputError({art_path, 0, 0, {}}, "", "no ART key");
    table.area = area_table_from_art(art_path, document);
  } catch (const InputError& error) {
    table.area_notes.push_back(std::string("the ART beside the ERT gives no area: ") + error.what());
  }
}

}  // namespace

std::string accelergy_component_kind(const std::string& component) {
  const std::optional<Part> part = part_of(component);
  return part ? part_name(*part) : "";
}

bool accelergy_holds_operand(const std::string& component, const std::string& operand) {
  return holds_operand(component, operand);
}

int accelergy_access_bits(YamlMap& component) {
  return access_bits(component);
}

std::vector<ErtEnergy> read_ert(const std::string& path, const YAML::Node& document) {
  auto origin = std::make_shared<YamlOrigin>(YamlOrigin{path, {}});
  YamlMap root(YamlView(document, origin, ""));
  YamlMap ert = root.get_map("ERT");
  std::vector<ErtEnergy> energies;
  const YamlView tables = ert.at("tables");
  if (tables.node().IsMap()) {
    tables.fail(
        "this ERT lists its tables as a map (Accelergy before 0.3); re-run Accelergy 0.3 or later, "
        "which writes a list of {name, actions}");
  }
  for (const YamlView& table : tables.items()) {
    YamlMap component(table);
    const std::string name = component.get_string("name");
    const int bits = access_bits(component);
    for (const YamlView& action_view : component.at("actions").items()) {
      YamlMap action(action_view);
      ErtEnergy energy;
      energy.component = name;
      energy.action = action.get_string("name");
      energy.arguments = arguments_text(action.view().node()["arguments"]);
      const YamlView value = action.at("energy");
      energy.pj = value.as_number(kEnergyPerAccessPj);
      energy.where = value.location();
      energy.key_path = value.path();
      energy.access_bits = bits;
      energies.push_back(energy);
    }
  }
  if (energies.empty()) ert.at("tables").fail("the ERT prices no action");
  return energies;
}

EnergyTable energy_table_from_ert(const std::string& path, const YAML::Node& document) {
  const ErtIndex ert(path, read_ert(path, document));
  EnergyTable table;
  table.file = path;
  table.name = std::filesystem::path(path).stem().string();
  table.source = "Accelergy ERT " + path;
  table.nominal_voltage_v = 0;  // the config's nominal voltage: an ERT does not record its own
  for (int bits : {16, 8}) {
    WordWidthEnergies width;
    width.word_bits = bits;
    add_default_actions(ert, bits, {}, width.actions, table.notes);
    table.word_widths.push_back(width);
  }
  table.notes.push_back(
      "an ERT holds no clock tree, control or leakage power: those cost 0; its energies are taken at the "
      "config's nominal voltage (an Ergon table with accelergy_ert: can say otherwise, docs/energy.md)");
  add_sibling_art(path, table);
  return table;
}

void add_ert_energies(YamlMap section, EnergyTable& table) {
  const YamlView file_view = section.at("file");
  std::filesystem::path ert_path = section.get_string("file");
  if (ert_path.is_relative()) ert_path = std::filesystem::path(table.file).parent_path() / ert_path;
  const YAML::Node document = load_yaml_file(ert_path.string());
  if (!document.IsMap() || !document["ERT"])
    file_view.fail(ert_path.string() + " is not an Accelergy ERT (no ERT key)");
  const ErtIndex ert(ert_path.string(), read_ert(ert_path.string(), document));
  WordWidthEnergies width;
  width.word_bits = static_cast<int>(section.get_int("word_bits", IntRule{8, 16}));
  if (width.word_bits != 8 && width.word_bits != 16) section.at("word_bits").fail("word width must be 8 or 16 bits");
  std::set<std::string> given;
  if (section.has("actions")) {
    width.actions = explicit_actions(ert, section.at("actions"), width.word_bits, table.notes);
    for (const ActionEnergy& entry : width.actions) given.insert(entry.action);
  }
  add_default_actions(ert, width.word_bits, given, width.actions, table.notes);
  section.reject_unknown_keys();
  table.word_widths.push_back(width);
}

}  // namespace ergon
