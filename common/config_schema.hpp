#pragma once
// A config schema: each key of a YAML input is declared once, beside the part it configures, with its type,
// default, unit, range or choices, when it applies and one help line. The loader reads every key through its
// declaration, `ergon config show` prints the loaded values, `ergon config keys` lists the declarations and a
// test holds docs/config.md's key table to them (docs/architecture.md, "Adding a config key").
//
// Declarations are grouped in sections (one YAML mapping, or a plug-in's keys within one) that register
// themselves with ERGON_REGISTER(ConfigSection<Root>, "name", section, order); `order` is the loading order.
#include <fmt/format.h>

#include <cmath>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "common/text.hpp"
#include "common/yaml_view.hpp"

namespace ergon {

enum class ConfigKeyType { kText, kInteger, kNumber, kBoolean, kChoice, kList, kMapping };
const char* config_key_type_name(ConfigKeyType type);

// A plug-in's keys apply when the key choosing the plug-in names it, e.g. {"dram.impl", "banked"}.
struct AppliesWhen {
  std::string key;  // empty: always
  std::string value;
  std::string text() const { return key.empty() ? "" : key + ": " + value; }
};

// What a user reads about a key (`config keys`, docs/config.md).
struct ConfigKeyInfo {
  std::string path;  // as --set spells it; `<name>` stands for a name the user chooses
  ConfigKeyType type = ConfigKeyType::kText;
  std::string default_text;  // "required", the default as YAML writes it, or how it follows from other keys
  std::string unit;
  std::string range;  // e.g. "[1, 65536]", "> 0"
  std::vector<std::string> choices;
  std::string applies_when;  // e.g. "pe_array.impl: systolic"; empty: always
  std::string help;
};

inline constexpr const char* kRequired = "required";

std::string range_text(IntRule rule);
std::string range_text(NumberRule rule);
// The last segment of a key path: the key within its section's mapping.
std::string key_leaf(const std::string& path);
// `config keys` as a fixed-width table and as JSON.
std::string config_keys_table(const std::vector<ConfigKeyInfo>& keys);
nlohmann::ordered_json config_keys_json(const std::vector<ConfigKeyInfo>& keys);
// The key table of docs/config.md (a test holds the document to it).
std::string config_keys_markdown(const std::vector<ConfigKeyInfo>& keys);
// Whether a `config show` row (a key path, list items by index) is the value of the declared key `path`
// (`<name>` matches one segment; a list or mapping key matches the rows under it).
bool shows_key(const ConfigKeyInfo& key, const std::string& row);

// One key of a config `Root` type.
template <typename Root>
struct ConfigKey {
  ConfigKeyInfo info;
  // The choices, when they are only known at start-up (registered plug-in names).
  std::function<std::vector<std::string>()> choices;
  // Reads the key (or its default) from its section's mapping into the config. Null: read by another key
  // (the fields of a list or mapping value).
  std::function<void(YamlMap& section, Root& config)> load;
  // The loaded value for `config show`; null JSON when it has none. Null function: shown by another key.
  std::function<nlohmann::ordered_json(const Root& config)> value;
  // Fails at `present` when the key is given where it does not apply (or accepts it: return). Null: refused
  // as applying to its section's plug-in only.
  std::function<void(const YamlView& present, const Root& config)> refuse;

  ConfigKeyInfo described() const {
    ConfigKeyInfo described = info;
    if (choices) described.choices = choices();
    return described;
  }
};

// The keys of one YAML mapping, or a plug-in's keys within it.
template <typename Root>
struct ConfigSection {
  std::string path;       // the mapping, e.g. "dram" or "pe_array.rf"; empty: the top level
  bool required = false;  // the mapping must be present (when its parent is)
  AppliesWhen applies;
  std::vector<ConfigKey<Root>> keys;
  // Keys of another section of the same mapping this plug-in derives itself: that section does not read
  // them, and `prepare` refuses them when given.
  std::vector<std::string> derives;
  std::function<void(YamlMap& section, Root& config)> prepare;               // before the keys
  std::function<void(YamlMap& section, YamlMap& root, Root& config)> check;  // after them: cross-key checks
  // For a plug-in's own mapping (pe_array.rf): fails at it when given where the section does not apply.
  // Null: each key given is refused (by its own `refuse`, or as applying to `applies` only).
  std::function<void(const YamlView& present, const Root& config)> refuse;
  // Null: the section is read whenever it applies. Set: it is read only when its mapping is given, and shown
  // when this says it was (soc).
  std::function<bool(const Root& config)> present;
};

// A default-constructed config: its fields' initialisers are the defaults.
template <typename Root>
const Root& defaults() {
  static const Root root{};
  return root;
}

// The field of a config a key reads, for the builders below: ERGON_FIELD(noc.filter_bus_words).
#define ERGON_FIELD(member)   \
  [](auto& config) -> auto& { \
    return config.member;     \
  }

namespace schema_detail {
inline std::string default_text_of(double value) {
  return fmt::format("{:g}", value);
}
inline std::string default_text_of(std::int64_t value) {
  return std::to_string(value);
}
inline std::string default_text_of(int value) {
  return std::to_string(value);
}
inline std::string default_text_of(bool value) {
  return value ? "true" : "false";
}
inline std::string default_text_of(const std::string& value) {
  return value;
}
}  // namespace schema_detail

// Builders for the common kinds of key. `access(config)` returns a reference to the key's field (ERGON_FIELD);
// the default is that field in a default-constructed Root (the struct's initialiser is the one place a default
// is written), unless `required`.
namespace schema_detail {
// A key whose value is the field `access` returns: its description and `config show` value; the builders add
// how it loads.
template <typename Root, typename Access>
ConfigKey<Root> field_backed_key(std::string path, Access access, ConfigKeyType type, bool required, std::string unit,
                                 std::string range, std::string help) {
  ConfigKey<Root> key;
  key.info = {std::move(path),
              type,
              required ? kRequired : default_text_of(access(defaults<Root>())),
              std::move(unit),
              std::move(range),
              {},
              "",
              std::move(help)};
  key.value = [access](const Root& config) { return nlohmann::ordered_json(access(config)); };
  return key;
}
}  // namespace schema_detail

template <typename Root, typename Access>
ConfigKey<Root> number_key(std::string path, Access access, NumberRule rule, std::string unit, std::string help,
                           bool required = false) {
  ConfigKey<Root> key = schema_detail::field_backed_key<Root>(path, access, ConfigKeyType::kNumber, required,
                                                              std::move(unit), range_text(rule), std::move(help));
  key.load = [access, rule, required, leaf = key_leaf(path)](YamlMap& map, Root& config) {
    double& field = access(config);
    field = required ? map.get_number(leaf, rule) : map.get_number(leaf, field, rule);
  };
  return key;
}

template <typename Root, typename Access>
ConfigKey<Root> int_key(std::string path, Access access, IntRule rule, std::string unit, std::string help,
                        bool required = false) {
  ConfigKey<Root> key = schema_detail::field_backed_key<Root>(path, access, ConfigKeyType::kInteger, required,
                                                              std::move(unit), range_text(rule), std::move(help));
  key.load = [access, rule, required, leaf = key_leaf(path)](YamlMap& map, Root& config) {
    auto& field = access(config);
    field = static_cast<std::remove_reference_t<decltype(field)>>(required ? map.get_int(leaf, rule)
                                                                           : map.get_int(leaf, field, rule));
  };
  return key;
}

// `key` followed, once it has loaded, by `check` on the loaded config: a rule across keys, or one the key's
// range cannot state, failing at the key's line through `section`.
template <typename Root>
ConfigKey<Root> with_check(ConfigKey<Root> key, std::function<void(YamlMap& section, const Root& config)> check) {
  key.load = [read = std::move(key.load), check = std::move(check)](YamlMap& section, Root& config) {
    read(section, config);
    check(section, config);
  };
  return key;
}

template <typename Root, typename Access>
ConfigKey<Root> bool_key(std::string path, Access access, std::string help) {
  ConfigKey<Root> key =
      schema_detail::field_backed_key<Root>(path, access, ConfigKeyType::kBoolean, false, "", "", std::move(help));
  key.load = [access, leaf = key_leaf(path)](YamlMap& map, Root& config) {
    bool& field = access(config);
    field = map.get_bool(leaf, field);
  };
  return key;
}

template <typename Root, typename Access>
ConfigKey<Root> text_key(std::string path, Access access, std::string help, bool required = false) {
  ConfigKey<Root> key;
  const std::string fallback = access(defaults<Root>());
  key.info = {path, ConfigKeyType::kText, required ? kRequired : (fallback.empty() ? "\"\"" : fallback), "", "", {},
              "",   std::move(help)};
  const std::string leaf = key_leaf(path);
  key.load = [access, required, leaf](YamlMap& map, Root& config) {
    std::string& field = access(config);
    field = required ? map.get_string(leaf) : map.get_string(leaf, field);
  };
  key.value = [access](const Root& config) { return nlohmann::ordered_json(access(config)); };
  return key;
}

// A value from `choices` (case-insensitive; the canonical spelling is kept): an unknown one fails with the
// closest choice or the list of them.
std::string read_choice(const YamlView& value, const std::string& key, const std::vector<std::string>& choices);

// An enumeration: `names` pairs each spelling with its value, in the order help lists them.
template <typename T>
using ChoiceNames = std::vector<std::pair<std::string, T>>;

template <typename T>
const std::string& name_of(const ChoiceNames<T>& names, const T& value) {
  for (const auto& [name, choice] : names) {
    if (choice == value) return name;
  }
  throw std::logic_error("a config value without a name");
}

template <typename T>
T value_of(const ChoiceNames<T>& names, const std::string& name) {
  for (const auto& [spelling, choice] : names) {
    if (spelling == name) return choice;
  }
  throw std::logic_error("no config value named '" + name + "'");
}

template <typename T>
std::vector<std::string> spellings(const ChoiceNames<T>& names) {
  std::vector<std::string> result;
  for (const auto& entry : names) result.push_back(entry.first);
  return result;
}

template <typename Root, typename T, typename Access>
ConfigKey<Root> choice_key(std::string path, Access access, ChoiceNames<T> names, std::string help) {
  ConfigKey<Root> key;
  key.info = {path, ConfigKeyType::kChoice, name_of(names, access(defaults<Root>())), "", "", spellings(names),
              "",   std::move(help)};
  const std::string leaf = key_leaf(path);
  key.load = [access, names, leaf](YamlMap& map, Root& config) {
    if (const auto view = map.find(leaf)) access(config) = value_of(names, read_choice(*view, leaf, spellings(names)));
  };
  key.value = [access, names](const Root& config) { return nlohmann::ordered_json(name_of(names, access(config))); };
  return key;
}

// A key naming a registered plug-in (`names()` lists them); the field keeps the name.
template <typename Root, typename Access>
ConfigKey<Root> plugin_key(std::string path, Access access, std::function<std::vector<std::string>()> names,
                           std::string help) {
  ConfigKey<Root> key;
  key.info = {path, ConfigKeyType::kChoice, access(defaults<Root>()), "", "", {}, "", std::move(help)};
  key.choices = names;
  const std::string leaf = key_leaf(path);
  key.load = [access, names, leaf](YamlMap& map, Root& config) {
    if (const auto view = map.find(leaf)) access(config) = read_choice(*view, leaf, names());
  };
  key.value = [access](const Root& config) { return nlohmann::ordered_json(access(config)); };
  return key;
}

// A key described here but read and shown by another (a field of a list item or of a named entry).
template <typename Root>
ConfigKey<Root> field_key(std::string path, ConfigKeyType type, std::string default_text, std::string unit,
                          std::string range, std::string help) {
  ConfigKey<Root> key;
  key.info = {std::move(path), type, std::move(default_text), std::move(unit), std::move(range), {}, "",
              std::move(help)};
  return key;
}

}  // namespace ergon
