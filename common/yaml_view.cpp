#include "common/yaml_view.hpp"

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>

#include <cmath>
#include <filesystem>
#include <sstream>

#include "common/input_text.hpp"
#include "common/text.hpp"

namespace ergon {
namespace {

SourceLocation mark_location(const std::string& file, const YAML::Mark& mark) {
  if (mark.is_null()) return {file, 0, 0, {}};
  return {file, mark.line + 1, mark.column + 1, {}};
}

std::string describe_scalar(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "nothing";
  if (node.IsMap()) return "a mapping";
  if (node.IsSequence()) return "a list";
  return "'" + node.Scalar() + "'";
}

// Records where each document's first node starts. yaml-cpp 0.7 does not consume a token that cannot start
// a node (a stray ',' for one), and LoadAll then reads null documents forever, allocating as it goes
// (jbeder/yaml-cpp#1040, fixed upstream by #1319). A document that starts where the previous one did is
// that stuck parser.
class DocumentStarts : public YAML::EventHandler {
 public:
  const std::vector<YAML::Mark>& starts() const { return starts_; }
  void OnDocumentStart(const YAML::Mark&) override { awaiting_node_ = true; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { note(mark); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { note(mark); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t, const std::string&) override { note(mark); }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    note(mark);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    note(mark);
  }
  void OnMapEnd() override {}

 private:
  void note(const YAML::Mark& mark) {
    if (awaiting_node_) starts_.push_back(mark);
    awaiting_node_ = false;
  }
  std::vector<YAML::Mark> starts_;
  bool awaiting_node_ = false;
};

// The one YAML document of `text` (YAML::ParserException on a syntax error).
YAML::Node load_single_document(const std::string& text, const std::string& path) {
  std::istringstream stream(text);
  YAML::Parser parser(stream);
  DocumentStarts documents;
  for (int parsed = 0; parsed < 2 && parser.HandleNextDocument(documents); ++parsed) {
  }
  const auto& starts = documents.starts();
  if (starts.size() > 1 && starts[1].pos == starts[0].pos) {
    const auto at = static_cast<std::size_t>(starts[0].pos);
    const std::string stray = at < text.size() ? "'" + text.substr(at, 1) + "'" : "the end of the file";
    throw InputError(mark_location(path, starts[0]), "",
                     "YAML syntax error: " + stray + " cannot start a value; remove it or quote the value");
  }
  if (starts.size() > 1) {
    throw InputError(mark_location(path, starts[1]), "",
                     "a second YAML document ('---'); an input file holds exactly one");
  }
  return YAML::Load(text);
}

std::string format_number(double value) {
  return fmt::format("{:g}", value);
}

}  // namespace

YAML::Node load_yaml_file(const std::string& path) {
  const std::string text = read_input_text(path, "a YAML mapping (key: value lines)");
  YAML::Node root;
  try {
    root = load_single_document(text, path);
  } catch (const YAML::ParserException& error) {
    throw InputError(mark_location(path, error.mark), "",
                     "YAML syntax error: " + error.msg + " (check the brackets, quotes and indentation here)");
  }
  if (!root.IsDefined() || root.IsNull()) {
    throw InputError({path, 0, 0, {}}, "", "the file is empty; expected a YAML mapping");
  }
  if (!root.IsMap()) {
    throw InputError(mark_location(path, root.Mark()), "",
                     "expected a YAML mapping (key: value lines) at the top level");
  }
  return root;
}

namespace {

// Puts `value` (none: nothing) under `key`, noting what the entry held in `log` when given.
void replace_entry(YAML::Node& map, const std::string& key, const std::optional<YAML::Node>& value,
                   std::vector<ScopedOverrides::Replaced>* log) {
  if (log != nullptr) {
    ScopedOverrides::Replaced replaced{map, key, std::nullopt};
    for (const auto& entry : map) {
      if (entry.first.IsScalar() && entry.first.Scalar() == key) replaced.original.emplace(entry.first, entry.second);
    }
    log->push_back(std::move(replaced));
  }
  map.remove(key);  // detach first: assigning to an aliased node would change its twins
  if (value) map[key] = *value;
}

void apply_overrides(YAML::Node& root, const std::vector<std::string>& assignments, YamlOrigin& origin,
                     std::vector<ScopedOverrides::Replaced>* log) {
  for (const auto& assignment : assignments) {
    const std::string label = "--set " + assignment;
    const auto equals = assignment.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == assignment.size()) {
      throw InputError({{}, 0, 0, label}, "", "expected key.path=value");
    }
    const std::string key_path = assignment.substr(0, equals);
    const std::string value_text = assignment.substr(equals + 1);
    std::vector<std::string> keys;
    std::stringstream path_stream(key_path);
    for (std::string key; std::getline(path_stream, key, '.');) {
      if (key.empty()) throw InputError({{}, 0, 0, label}, key_path, "empty key in the key path");
      keys.push_back(key);
    }
    YAML::Node current = root;
    for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
      YAML::Node next = current[keys[i]];
      if (next.IsDefined() && !next.IsNull() && !next.IsMap()) {
        throw InputError({{}, 0, 0, label}, key_path, keys[i] + " is a value, not a section");
      }
      if (!next.IsDefined() || next.IsNull()) replace_entry(current, keys[i], YAML::Node(YAML::NodeType::Map), log);
      current.reset(current[keys[i]]);
    }
    YAML::Node value;
    try {
      value = YAML::Load(value_text);
    } catch (const YAML::ParserException&) {
      value = YAML::Node(value_text);
    }
    // `key=~` removes the key
    replace_entry(current, keys.back(), value.IsNull() ? std::nullopt : std::optional<YAML::Node>(value), log);
    origin.overrides[key_path] = label;
  }
}

}  // namespace

void apply_overrides(YAML::Node& root, const std::vector<std::string>& assignments, YamlOrigin& origin) {
  apply_overrides(root, assignments, origin, nullptr);
}

ScopedOverrides::ScopedOverrides(YAML::Node root, const std::vector<std::string>& assignments, YamlOrigin& origin) {
  try {
    apply_overrides(root, assignments, origin, &replaced_);
  } catch (...) {
    undo();
    throw;
  }
}

ScopedOverrides::~ScopedOverrides() {
  undo();
}

// Latest first: a section an override created goes after the keys set inside it.
void ScopedOverrides::undo() {
  for (auto replaced = replaced_.rbegin(); replaced != replaced_.rend(); ++replaced) {
    replaced->map.remove(replaced->key);
    if (replaced->original) replaced->map.force_insert(replaced->original->first, replaced->original->second);
  }
  replaced_.clear();
}

YamlView::YamlView(YAML::Node node, std::shared_ptr<const YamlOrigin> origin, std::string path)
    : node_(std::move(node)), origin_(std::move(origin)), path_(std::move(path)) {}

SourceLocation YamlView::location() const {
  for (const auto& [key_path, label] : origin_->overrides) {
    const bool inside = path_ == key_path || path_.rfind(key_path + ".", 0) == 0;
    // A section that exists only because an override created it has no file position either.
    const bool created = node_.Mark().is_null() && !path_.empty() && key_path.rfind(path_ + ".", 0) == 0;
    if (inside || created) return {origin_->file, 0, 0, label};
  }
  return mark_location(origin_->file, node_.Mark());
}

void YamlView::fail(const std::string& message) const {
  throw InputError(location(), path_, message);
}

std::string YamlView::child_path(const std::string& key) const {
  return path_.empty() ? key : path_ + "." + key;
}

std::string YamlView::as_string() const {
  if (!node_.IsScalar()) fail("expected a text value, got " + describe_scalar(node_));
  // Names end up in JSON reports, which must be UTF-8; imported models (ONNX) are not checked before here.
  if (invalid_utf8_offset(node_.Scalar()) != std::string::npos) fail("the text is not valid UTF-8");
  return node_.Scalar();
}

std::int64_t YamlView::as_int(IntRule rule) const {
  if (!node_.IsScalar()) fail("expected an integer, got " + describe_scalar(node_));
  std::int64_t value = 0;
  if (!YAML::convert<std::int64_t>::decode(node_, value)) {
    double as_double = 0;
    const bool numeric = YAML::convert<double>::decode(node_, as_double);
    if (numeric && std::isfinite(as_double) && std::fabs(as_double) >= 9.2e18) {
      fail("integer " + node_.Scalar() + " does not fit in 64 bits");
    }
    fail("expected an integer, got " + describe_scalar(node_));
  }
  if (value < rule.min || value > rule.max) {
    if (rule.max == std::numeric_limits<std::int64_t>::max()) {
      fail(fmt::format("must be at least {} (got {})", rule.min, value));
    }
    fail(fmt::format("must be between {} and {} (got {})", rule.min, rule.max, value));
  }
  return value;
}

double YamlView::as_number(NumberRule rule) const {
  if (!node_.IsScalar()) fail("expected a number, got " + describe_scalar(node_));
  double value = 0;
  if (!YAML::convert<double>::decode(node_, value)) {
    fail("expected a number, got " + describe_scalar(node_));
  }
  if (!std::isfinite(value)) fail("must be a finite number (got " + node_.Scalar() + ")");
  const bool below = rule.min_exclusive ? value <= rule.min : value < rule.min;
  if (below || value > rule.max) {
    const std::string lower = (rule.min_exclusive ? "> " : ">= ") + format_number(rule.min);
    if (std::isinf(rule.max)) fail("must be " + lower + " (got " + node_.Scalar() + ")");
    fail("must be " + lower + " and <= " + format_number(rule.max) + " (got " + node_.Scalar() + ")");
  }
  return value;
}

bool YamlView::as_bool() const {
  bool value = false;
  if (!node_.IsScalar() || !YAML::convert<bool>::decode(node_, value)) {
    fail("expected true or false, got " + describe_scalar(node_));
  }
  return value;
}

std::vector<YamlView> YamlView::items() const {
  if (!node_.IsSequence()) fail("expected a list, got " + describe_scalar(node_));
  std::vector<YamlView> result;
  for (std::size_t i = 0; i < node_.size(); ++i) {
    result.emplace_back(node_[i], origin_, fmt::format("{}[{}]", path_, i));
  }
  return result;
}

YamlView YamlView::child(const YAML::Node& node, const std::string& key) const {
  return YamlView(node, origin_, child_path(key));
}

YamlMap::YamlMap(const YamlView& view) : view_(view) {
  if (!view_.node().IsMap()) {
    view_.fail("expected a mapping of key: value, got " + describe_scalar(view_.node()));
  }
  std::set<std::string> seen;
  for (const auto& entry : view_.node()) {
    if (!entry.first.IsScalar()) view_.fail("keys must be plain words");
    const std::string& key = entry.first.Scalar();
    if (!seen.insert(key).second) view_.child(entry.first, key).fail("duplicate key; keep one of the two");
  }
}

bool YamlMap::has(const std::string& key) {
  known_keys_.insert(key);
  const YAML::Node child = view_.node()[key];
  return child.IsDefined() && !child.IsNull();
}

std::optional<YamlView> YamlMap::find(const std::string& key) {
  if (!has(key)) return std::nullopt;
  return view_.child(view_.node()[key], key);
}

YamlView YamlMap::at(const std::string& key) {
  auto value = find(key);
  if (value) return *value;
  // A missing key is often a misspelt one: name the likely misspelling too.
  std::string hint;
  for (const auto& entry : view_.node()) {
    const std::string& present = entry.first.Scalar();
    if (known_keys_.count(present) == 0 && closest_match(present, {key}) == key) {
      hint = fmt::format(" (is '{}' on line {} a misspelling of it?)", present, entry.first.Mark().line + 1);
    }
  }
  const auto removed = view_.origin()->overrides.find(view_.child_path(key));
  if (removed != view_.origin()->overrides.end()) hint = " (" + removed->second + " removed it)";
  view_.fail("missing required key '" + key + "'" + (hint.empty() ? "; add it" : hint));
}

std::string YamlMap::get_string(const std::string& key) {
  return at(key).as_string();
}

std::string YamlMap::get_string(const std::string& key, const std::string& fallback) {
  auto value = find(key);
  return value ? value->as_string() : fallback;
}

std::int64_t YamlMap::get_int(const std::string& key, IntRule rule) {
  return at(key).as_int(rule);
}

std::int64_t YamlMap::get_int(const std::string& key, std::int64_t fallback, IntRule rule) {
  auto value = find(key);
  return value ? value->as_int(rule) : fallback;
}

double YamlMap::get_number(const std::string& key, NumberRule rule) {
  return at(key).as_number(rule);
}

double YamlMap::get_number(const std::string& key, double fallback, NumberRule rule) {
  auto value = find(key);
  return value ? value->as_number(rule) : fallback;
}

bool YamlMap::get_bool(const std::string& key, bool fallback) {
  auto value = find(key);
  return value ? value->as_bool() : fallback;
}

YamlMap YamlMap::get_map(const std::string& key) {
  return YamlMap(at(key));
}

void YamlMap::reject_unknown_keys() const {
  const std::vector<std::string> known(known_keys_.begin(), known_keys_.end());
  for (const auto& entry : view_.node()) {
    const std::string& key = entry.first.Scalar();
    if (known_keys_.count(key) > 0) continue;
    const std::string suggestion = closest_match(key, known);
    std::string message = "unknown key '" + key + "'";
    message +=
        suggestion.empty() ? "; known keys: " + join_alternatives(known) : "; did you mean '" + suggestion + "'?";
    view_.child(entry.first, key).fail(message);
  }
}

}  // namespace ergon
