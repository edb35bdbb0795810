#pragma once
// Validated, located access to YAML input. Every value read through these classes carries its key path
// and source position, so any complaint reads "file:line:col: key.path: what is wrong".
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/input_error.hpp"

namespace ergon {

// Where a YAML tree came from: the file and the key paths replaced by command-line overrides.
struct YamlOrigin {
  std::string file;
  std::map<std::string, std::string> overrides;  // key path -> "--set key.path=value"
};

// Inclusive bounds on a number; `min_exclusive` turns the lower bound into "greater than".
struct NumberRule {
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool min_exclusive = false;
};
inline constexpr NumberRule kAnyNumber{};
inline constexpr NumberRule kPositive{0.0, std::numeric_limits<double>::infinity(), true};
inline constexpr NumberRule kNonNegative{0.0, std::numeric_limits<double>::infinity(), false};

struct IntRule {
  std::int64_t min = std::numeric_limits<std::int64_t>::min();
  std::int64_t max = std::numeric_limits<std::int64_t>::max();
};
inline constexpr IntRule kPositiveInt{1, std::numeric_limits<std::int64_t>::max()};
inline constexpr IntRule kNonNegativeInt{0, std::numeric_limits<std::int64_t>::max()};

// Loads a YAML file; a missing, unreadable, empty or malformed file is an InputError.
YAML::Node load_yaml_file(const std::string& path);

// Replaces values by "key.path=value" assignments (the value is parsed as YAML; `~` or `null` removes the
// key) and records them in `origin` so errors about them point at the command line.
void apply_overrides(YAML::Node& root, const std::vector<std::string>& assignments, YamlOrigin& origin);

// Overrides applied to a parsed document while this lives, then undone: one parsed document serves many
// loads (a sweep's points) and keeps every file position (a copied YAML tree would lose them).
class ScopedOverrides {
 public:
  ScopedOverrides(YAML::Node root, const std::vector<std::string>& assignments, YamlOrigin& origin);
  ~ScopedOverrides();
  ScopedOverrides(const ScopedOverrides&) = delete;
  ScopedOverrides& operator=(const ScopedOverrides&) = delete;

  // A map entry an override replaced, removed or added, and what it held.
  struct Replaced {
    YAML::Node map;
    std::string key;
    std::optional<std::pair<YAML::Node, YAML::Node>> original;  // key node, value node; none: added
  };

 private:
  void undo();
  std::vector<Replaced> replaced_;
};

// One node of a YAML tree, with its key path.
class YamlView {
 public:
  YamlView(YAML::Node node, std::shared_ptr<const YamlOrigin> origin, std::string path);

  const std::string& path() const { return path_; }
  const YAML::Node& node() const { return node_; }
  SourceLocation location() const;
  [[noreturn]] void fail(const std::string& message) const;

  std::string as_string() const;
  std::int64_t as_int(IntRule rule = {}) const;
  double as_number(NumberRule rule = kAnyNumber) const;
  bool as_bool() const;
  std::vector<YamlView> items() const;  // the elements of a sequence
  std::string child_path(const std::string& key) const;
  YamlView child(const YAML::Node& node, const std::string& key) const;  // a value under this node
  const std::shared_ptr<const YamlOrigin>& origin() const { return origin_; }

 private:
  YAML::Node node_;
  std::shared_ptr<const YamlOrigin> origin_;
  std::string path_;
};

// A YAML mapping whose keys are checked: reading a key marks it known; `reject_unknown_keys` reports
// the rest, suggesting the closest known key.
class YamlMap {
 public:
  explicit YamlMap(const YamlView& view);

  const YamlView& view() const { return view_; }
  bool has(const std::string& key);
  YamlView at(const std::string& key);  // required key
  std::optional<YamlView> find(const std::string& key);

  std::string get_string(const std::string& key);
  std::string get_string(const std::string& key, const std::string& fallback);
  std::int64_t get_int(const std::string& key, IntRule rule = {});
  std::int64_t get_int(const std::string& key, std::int64_t fallback, IntRule rule = {});
  double get_number(const std::string& key, NumberRule rule = kAnyNumber);
  double get_number(const std::string& key, double fallback, NumberRule rule = kAnyNumber);
  bool get_bool(const std::string& key, bool fallback);
  YamlMap get_map(const std::string& key);

  void reject_unknown_keys() const;

 private:
  YamlView view_;
  std::set<std::string> known_keys_;
};

}  // namespace ergon
