#include "sim/sweep/sweep_links.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "arch/accelerator_config.hpp"
#include "arch/config_keys.hpp"
#include "common/input_error.hpp"
#include "common/text.hpp"
#include "common/yaml_view.hpp"
#include "sim/sweep/sweep_points.hpp"

namespace ergon {
namespace {

bool is_key_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_';
}

bool is_key_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.';
}

bool is_number_char(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '.';
}

// Reads EXPR (the grammar in sweep_links.hpp) into `link`, failing at the character where it goes wrong.
class LinkParser {
 public:
  LinkParser(const std::string& argument, std::size_t expression_start, SweepLink& link)
      : argument_(argument), at_(expression_start), link_(link) {}

  void parse() {
    link_.terms.push_back(term(false));
    for (skip_spaces(); at_ < argument_.size(); skip_spaces()) {
      const char op = argument_[at_];
      if (op != '+' && op != '-') fail("expected + - * / or the end");
      ++at_;
      link_.terms.push_back(term(op == '-'));
    }
    if (link_.source.empty()) fail_whole("EXPR holds no key: it computes the linked value from one key");
  }

 private:
  LinkTerm term(bool negative) {
    LinkTerm term{negative, {factor(false)}};
    for (skip_spaces(); at_ < argument_.size() && (argument_[at_] == '*' || argument_[at_] == '/'); skip_spaces()) {
      const bool divides = argument_[at_++] == '/';
      term.factors.push_back(factor(divides));
    }
    return term;
  }

  LinkFactor factor(bool divides) {
    skip_spaces();
    if (at_ == argument_.size()) fail("expected a number or a key, found the end");
    const char c = argument_[at_];
    if (is_number_char(c)) return number(divides);
    if (is_key_start(c)) return key(divides);
    fail("expected a number or a key");
  }

  LinkFactor number(bool divides) {
    const std::size_t start = at_;
    while (at_ < argument_.size() && is_number_char(argument_[at_])) ++at_;
    const std::string digits = argument_.substr(start, at_ - start);
    const std::optional<double> value = parse_finite_number(digits);
    if (!value || std::count(digits.begin(), digits.end(), '.') > 1) fail_at(start, "not a number");
    if (at_ < argument_.size() && is_key_start(argument_[at_])) fail("expected + - * / between a number and a key");
    if (divides && *value == 0) fail_at(start, "division by zero");
    return {divides, false, *value};
  }

  LinkFactor key(bool divides) {
    const std::size_t start = at_;
    while (at_ < argument_.size() && is_key_char(argument_[at_])) ++at_;
    const std::string name = argument_.substr(start, at_ - start);
    if (name.back() == '.' || name.find("..") != std::string::npos) fail_at(start, "'" + name + "' is not a key path");
    if (divides) fail_at(start, "a key never divides: EXPR is products and quotients of one key and numbers");
    if (!link_.source.empty()) {
      fail_at(start, "a second key (" + name + " after " + link_.source + "): EXPR reads exactly one key");
    }
    if (name == link_.key) fail_at(start, link_.key + " cannot be computed from itself");
    link_.source = name;
    return {false, true, 0};
  }

  void skip_spaces() {
    while (at_ < argument_.size() && argument_[at_] == ' ') ++at_;
  }

  [[noreturn]] void fail(const std::string& message) const { fail_at(at_, message); }

  [[noreturn]] void fail_at(std::size_t position, const std::string& message) const {
    const std::string found = position < argument_.size() ? argument_.substr(position, 12) : "";
    fail_whole(fmt::format("at character {}{}: {}", position + 1, found.empty() ? "" : " ('" + found + "')", message));
  }

  [[noreturn]] void fail_whole(const std::string& message) const {
    throw InputError({{}, 0, 0, "--link " + argument_}, "", message);
  }

  const std::string& argument_;
  std::size_t at_;
  SweepLink& link_;
};

// Whether the linked key takes whole numbers, from the config schema; a key that is not numeric is refused.
bool takes_whole_numbers(const SweepLink& link) {
  if (link.key == kBatchKey) return true;
  std::vector<std::string> paths;
  for (const ConfigKeyInfo& info : accelerator_config_keys()) {
    if (!shows_key(info, link.key)) {
      paths.push_back(info.path);
      continue;
    }
    if (info.type == ConfigKeyType::kInteger) return true;
    if (info.type == ConfigKeyType::kNumber) return false;
    throw InputError({{}, 0, 0, "--link " + link.argument}, link.key,
                     std::string("a ") + config_key_type_name(info.type) + " key; a link computes a number");
  }
  const std::string close = closest_match(link.key, paths);
  throw InputError({{}, 0, 0, "--link " + link.argument}, link.key,
                   "not a config key (`ergon config keys` lists them)" +
                       (close.empty() ? std::string() : "; did you mean " + close + "?"));
}

// The value at `path` of `config show`'s nested values; nothing when there is none.
const nlohmann::ordered_json* value_at(const nlohmann::ordered_json& values, const std::string& path) {
  const nlohmann::ordered_json* node = &values;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = path.find('.', start);
    const std::string segment = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!node->is_object() || !node->contains(segment)) return nullptr;
    node = &(*node)[segment];
    if (dot == std::string::npos) return node;
    start = dot + 1;
  }
}

// The config's value of a link's source, with every swept key at its first (or last) value.
std::optional<double> config_value(const SweepLink& link, const std::vector<SweepParameter>& parameters,
                                   std::vector<std::string> overrides, const std::string& config_path, bool last) {
  for (const SweepParameter& p : parameters) {
    if (p.key != kBatchKey) overrides.push_back(p.key + "=" + (last ? p.values.back() : p.values.front()));
  }
  nlohmann::ordered_json values;
  try {
    values = accelerator_config_values(load_accelerator_config(config_path, overrides));
  } catch (const InputError& error) {
    throw InputError({{}, 0, 0, "--link " + link.argument}, "",
                     "cannot read " + link.source + " from the config: " + error.what());
  }
  const nlohmann::ordered_json* value = value_at(values, link.source);
  if (value == nullptr) {
    std::vector<std::string> swept;
    for (const SweepParameter& p : parameters) swept.push_back(p.key);
    const std::string close = closest_match(link.source, swept);
    throw InputError({{}, 0, 0, "--link " + link.argument}, "",
                     link.source + " is neither swept nor a key of the config (`ergon config show` lists them)" +
                         (close.empty() ? std::string() : "; did you mean " + close + "?"));
  }
  if (!value->is_number()) {
    throw InputError({{}, 0, 0, "--link " + link.argument}, "",
                     link.source + " is " + value->dump() + " in the config, not a number");
  }
  return value->get<double>();
}

std::optional<double> resolved_source(const SweepLink& link, const std::vector<SweepParameter>& parameters,
                                      const std::vector<std::string>& overrides, const std::string& config_path,
                                      std::int64_t fixed_batch) {
  if (link.source == kBatchKey) {
    if (fixed_batch > 0) return static_cast<double>(fixed_batch);
    throw InputError({{}, 0, 0, "--link " + link.argument}, "",
                     "batch is neither swept (--param batch=...) nor fixed (--batch N): each layer has its own");
  }
  const std::optional<double> first = config_value(link, parameters, overrides, config_path, false);
  const std::optional<double> last = config_value(link, parameters, overrides, config_path, true);
  if (first != last) {
    throw InputError({{}, 0, 0, "--link " + link.argument}, "",
                     fmt::format("{} follows the swept keys ({} at the first point, {} at the last): sweep it, or "
                                 "link from the key it follows",
                                 link.source, *first, *last));
  }
  return first;
}

// "what" of an InputError without its "label: key.path: " prefix.
std::string message_of(const InputError& error) {
  const std::string what = error.what();
  const std::string prefix = InputError(error.location(), error.key_path(), "").what();
  return what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what;
}

}  // namespace

double SweepLink::evaluate(double source_number) const {
  double sum = 0;
  for (const LinkTerm& term : terms) {
    double product = 1;
    for (std::size_t i = 0; i < term.factors.size(); ++i) {
      const LinkFactor& factor = term.factors[i];
      const double operand = factor.is_key ? source_number : factor.number;
      product = i == 0 ? operand : factor.divides ? product / operand : product * operand;
    }
    sum += term.negative ? -product : product;
  }
  return sum;
}

SweepLink parse_sweep_link(const std::string& text) {
  const std::size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0 || text.find_first_not_of(' ', equals + 1) == std::string::npos) {
    throw InputError({{}, 0, 0, "--link " + text}, "",
                     "expected KEY=EXPR, e.g. glb.filter_size_kib=glb.size_kib/2 (a key, * / + - and numbers)");
  }
  const auto trimmed = [](const std::string& part) {
    const std::size_t first = part.find_first_not_of(' ');
    return first == std::string::npos ? std::string() : part.substr(first, part.find_last_not_of(' ') - first + 1);
  };
  SweepLink link;
  link.key = trimmed(text.substr(0, equals));
  link.expression = trimmed(text.substr(equals + 1));
  link.argument = text;
  if (link.key.empty()) {
    throw InputError({{}, 0, 0, "--link " + text}, "", "expected KEY=EXPR: KEY, the linked key, is missing");
  }
  LinkParser(text, equals + 1, link).parse();
  link.whole_numbers = takes_whole_numbers(link);
  return link;
}

void resolve_link_sources(std::vector<SweepLink>& links, const std::vector<SweepParameter>& parameters,
                          const std::vector<std::string>& overrides, const std::string& config_path,
                          std::int64_t fixed_batch) {
  for (SweepLink& link : links) {
    bool swept = false;
    for (const SweepParameter& p : parameters) swept = swept || p.key == link.source;
    for (const SweepLink& other : links) {
      if (other.key == link.source) {
        throw InputError(
            {{}, 0, 0, "--link " + link.argument}, "",
            link.source + " is itself linked (--link " + other.argument + "): link from the key it is computed from");
      }
    }
    if (!swept) link.source_value = resolved_source(link, parameters, overrides, config_path, fixed_batch);
  }
}

nlohmann::ordered_json links_manifest(const SweepGrid& grid) {
  nlohmann::ordered_json links = nlohmann::ordered_json::array();
  for (std::size_t l = 0; l < grid.links().size(); ++l) {
    const SweepLink& link = grid.links()[l];
    links.push_back({{"key", link.key}, {"expression", link.expression}, {"values", grid.link_values(l)}});
  }
  return links;
}

void check_link_values(const SweepGrid& grid, const std::vector<std::string>& overrides,
                       const std::string& config_path) {
  if (grid.links().empty()) return;
  const YAML::Node document = load_yaml_file(config_path);
  const std::vector<SweepParameter>& parameters = grid.parameters();
  for (std::size_t l = 0; l < grid.links().size(); ++l) {
    const SweepLink& link = grid.links()[l];
    std::size_t p = 0;
    while (p < parameters.size() && parameters[p].key != link.source) ++p;
    const std::size_t count = p < parameters.size() ? parameters[p].values.size() : 1;
    for (std::size_t v = 0; v < count; ++v) {
      std::vector<std::string> values = grid.first_values();
      if (p < parameters.size()) values[p] = parameters[p].values[v];
      std::vector<std::string> assignments = overrides;
      for (const std::string& assignment : grid.config_assignments(values)) assignments.push_back(assignment);
      const std::string linked = link.key + "=" + grid.link_values(l)[v];
      try {
        load_accelerator_config(document, config_path, assignments);
      } catch (const InputError& error) {
        if (error.location().override_text != "--set " + linked) return;  // the sweep's own check names it
        SourceLocation location = error.location();
        location.override_text = "--link " + link.argument;
        throw InputError(location, error.key_path(),
                         message_of(error) + " (" + linked +
                             (p < parameters.size() ? " at " + grid.first_point_with(p, v) : "") + ")");
      }
    }
  }
}

}  // namespace ergon
