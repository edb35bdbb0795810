#include "sim/sweep/sweep_points.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "common/input_error.hpp"
#include "common/text.hpp"
#include "network/layer.hpp"  // kMaxBatch

namespace ergon {
namespace {

constexpr std::size_t kMaxValuesPerParameter = 1000000;

[[noreturn]] void fail(const std::string& argument, const std::string& message) {
  throw InputError({{}, 0, 0, "--param " + argument}, "", message);
}

double number(const std::string& text, const std::string& argument) {
  const std::optional<double> value = parse_finite_number(text);
  if (!value) fail(argument, "'" + text + "' is not a finite number");
  return *value;
}

std::vector<std::string> range_values(const std::vector<std::string>& parts, const std::string& argument) {
  const double low = number(parts[0], argument), high = number(parts[1], argument);
  if (high < low) fail(argument, "a range runs from low to high: lo:hi:step");
  std::vector<std::string> values;
  const bool geometric = !parts[2].empty() && parts[2][0] == '*';
  const double step = number(geometric ? parts[2].substr(1) : parts[2], argument);
  if (geometric && (step <= 1 || low <= 0)) fail(argument, "a geometric range lo:hi:*f needs lo > 0 and f > 1");
  if (!geometric && step <= 0) fail(argument, "the step of lo:hi:step must be positive");
  for (std::size_t i = 0;; ++i) {
    const double value = geometric ? low * std::pow(step, static_cast<double>(i)) : low + step * static_cast<double>(i);
    if (value > high * (1 + 1e-12) + 1e-12) break;
    if (values.size() == kMaxValuesPerParameter) fail(argument, "more than a million values");
    values.push_back(format_sweep_value(value));
  }
  return values;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find(separator, start)) != std::string::npos; start = end + 1) {
    parts.push_back(text.substr(start, end - start));
  }
  parts.push_back(text.substr(start));
  return parts;
}

// A list of numbers is normalised (so "8,16.0" and "8,16" name the same points); a list holding any other
// word (dram.preset=lpddr4,ddr5-4800) is kept as written, and each value is checked against the config
// key before the sweep runs.
std::vector<std::string> list_values(const std::vector<std::string>& items, const std::string& argument) {
  bool all_numbers = true;
  for (const std::string& item : items) {
    if (item.empty()) fail(argument, "an empty value in the list (two commas, or a comma at an end)");
    all_numbers = all_numbers && parse_finite_number(item).has_value();
  }
  std::vector<std::string> values;
  for (const std::string& item : items)
    values.push_back(all_numbers ? format_sweep_value(number(item, argument)) : item);
  for (std::size_t i = 0; i < values.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (values[i] == values[j]) fail(argument, "'" + items[i] + "' is in the list twice");
    }
  }
  return values;
}

}  // namespace

std::string format_sweep_value(double value) {
  return fmt::format("{}", *parse_finite_number(fmt::format("{:.12g}", value)));  // subnormals too
}

SweepParameter parse_sweep_parameter(const std::string& text) {
  const auto equals = text.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == text.size()) {
    fail(text, "expected key.path=SPEC (a list 1,2,4; a range lo:hi:step; a geometric range lo:hi:*2)");
  }
  SweepParameter parameter;
  parameter.key = text.substr(0, equals);
  parameter.argument = text;
  const std::string spec = text.substr(equals + 1);
  const std::vector<std::string> range = split(spec, ':');
  if (range.size() == 3) {
    parameter.values = range_values(range, text);
  } else if (range.size() == 1) {
    parameter.values = list_values(split(spec, ','), text);
  } else {
    fail(text, "a range has three parts: lo:hi:step or lo:hi:*factor");
  }
  return parameter;
}

namespace {

// Whether setting one key path also sets the other: the same key, or one a section holding the other.
bool keys_overlap(const std::string& a, const std::string& b) {
  const std::string& shorter = a.size() <= b.size() ? a : b;
  const std::string& longer = a.size() <= b.size() ? b : a;
  return longer.compare(0, shorter.size(), shorter) == 0 &&
         (longer.size() == shorter.size() || longer[shorter.size()] == '.');
}

// "glb.size_kib is already swept by --param ...", or for a section and a key inside it "glb overlaps
// glb.size_kib, swept by --param ...".
std::string clash_words(const std::string& key, const std::string& other, const std::string& how) {
  return key == other ? key + " is already " + how : key + " overlaps " + other + ", " + how;
}

}  // namespace

namespace {

// A link's key set twice: swept, fixed by --set or linked by an earlier --link.
void check_link_key_is_free(const SweepLink& link, std::size_t position, const std::vector<SweepParameter>& parameters,
                            const std::vector<std::string>& overrides, const std::vector<SweepLink>& links) {
  const SourceLocation where{{}, 0, 0, "--link " + link.argument};
  for (const SweepParameter& parameter : parameters) {
    if (keys_overlap(link.key, parameter.key)) {
      throw InputError(where, "",
                       clash_words(link.key, parameter.key, "swept by --param " + parameter.argument) +
                           "; a key is either swept or linked: drop one of them");
    }
  }
  for (const std::string& assignment : overrides) {
    const std::string key = assignment.substr(0, assignment.find('='));
    if (keys_overlap(link.key, key)) {
      throw InputError(where, "",
                       clash_words(link.key, key, "fixed by --set " + assignment) +
                           "; a key is either linked or fixed: drop one of them");
    }
  }
  for (std::size_t j = 0; j < position; ++j) {
    if (keys_overlap(link.key, links[j].key)) {
      throw InputError(
          where, "",
          clash_words(link.key, links[j].key, "linked by --link " + links[j].argument) + "; a key is linked once");
    }
  }
}

}  // namespace

void check_distinct_keys(const std::vector<SweepParameter>& parameters, const std::vector<std::string>& overrides,
                         const std::vector<SweepLink>& links) {
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    const SweepParameter& parameter = parameters[i];
    for (std::size_t j = 0; j < i; ++j) {
      if (keys_overlap(parameter.key, parameters[j].key)) {
        throw InputError({{}, 0, 0, "--param " + parameter.argument}, "",
                         clash_words(parameter.key, parameters[j].key, "swept by --param " + parameters[j].argument) +
                             "; a key is swept once: give all its values in one --param");
      }
    }
    for (const std::string& assignment : overrides) {
      const std::string key = assignment.substr(0, assignment.find('='));
      if (keys_overlap(parameter.key, key)) {
        throw InputError({{}, 0, 0, "--param " + parameter.argument}, "",
                         clash_words(parameter.key, key, "fixed by --set " + assignment) +
                             "; a key is either swept or fixed: drop one of them");
      }
    }
  }
  for (std::size_t i = 0; i < links.size(); ++i) check_link_key_is_free(links[i], i, parameters, overrides, links);
}

namespace {

// A swept batch is a whole number of images in [1, kMaxBatch], as `run --batch` takes.
void check_batch_values(const std::vector<std::string>& values, const std::string& option) {
  for (const std::string& value : values) {
    const std::optional<double> number = parse_finite_number(value);
    if (!number || *number != std::floor(*number) || *number < 1 || *number > static_cast<double>(kMaxBatch)) {
      throw InputError({{}, 0, 0, option}, kBatchKey,
                       fmt::format("'{}' is not a whole number of images in [1, {}]", value, kMaxBatch));
    }
  }
}

// Whether `value` is a whole number up to floating-point noise (0.1*3*10): anything further is refused, never
// rounded.
bool is_whole(double value) {
  return std::abs(value - std::round(value)) <= 1e-9 * std::max(1.0, std::abs(value));
}

}  // namespace

SweepGrid::SweepGrid(std::vector<std::string> workloads, std::vector<SweepParameter> parameters,
                     std::vector<SweepLink> links)
    : workloads_(std::move(workloads)), parameters_(std::move(parameters)), links_(std::move(links)) {
  size_ = workloads_.size();
  for (const SweepParameter& p : parameters_) {
    if (p.values.empty()) throw InputError({{}, 0, 0, "--param " + p.key}, "", "no values");
    if (size_ > std::numeric_limits<std::size_t>::max() / p.values.size()) {
      throw InputError({{}, 0, 0, "--param " + p.key}, "", "the sweep has too many points to count");
    }
    size_ *= p.values.size();
    if (p.key == kBatchKey) check_batch_values(p.values, "--param " + p.argument);
  }
  check_distinct_keys(parameters_, {}, links_);
  compute_link_values();
}

std::size_t SweepGrid::source_parameter(const SweepLink& link) const {
  for (std::size_t p = 0; p < parameters_.size(); ++p) {
    if (parameters_[p].key == link.source) return p;
  }
  return parameters_.size();
}

std::string SweepGrid::first_point_with(std::size_t p, std::size_t value) const {
  std::size_t index = 0;
  for (std::size_t q = 0; q < parameters_.size(); ++q)
    index = index * parameters_[q].values.size() + (q == p ? value : 0);
  std::string label = fmt::format("point {} ({}", index, workloads_.empty() ? "" : workloads_.front());
  for (std::size_t q = 0; q < parameters_.size(); ++q) {
    label += fmt::format(" {}={}", parameters_[q].key, parameters_[q].values[q == p ? value : 0]);
  }
  return label + ")";
}

// Each link's value at each value of its source, checked: a number, and a whole one for a key that takes
// integers.
void SweepGrid::compute_link_values() {
  value_index_.resize(parameters_.size());
  for (const SweepLink& link : links_) {
    const std::size_t p = source_parameter(link);
    const SourceLocation where{{}, 0, 0, "--link " + link.argument};
    if (p == parameters_.size() && !link.source_value) {
      throw InputError(where, "", link.source + " is not swept and has no value to read");
    }
    std::vector<std::string> values;
    const std::size_t count = p == parameters_.size() ? 1 : parameters_[p].values.size();
    for (std::size_t v = 0; v < count; ++v) {
      double source = link.source_value.value_or(0);
      if (p < parameters_.size()) {
        const std::optional<double> number = parse_finite_number(parameters_[p].values[v]);
        if (!number) {
          throw InputError(where, "",
                           fmt::format("{}'s value '{}' is not a number", link.source, parameters_[p].values[v]));
        }
        source = *number;
      }
      const double result = link.evaluate(source);
      const std::string at = p < parameters_.size() ? " at " + first_point_with(p, v) : "";
      if (!std::isfinite(result)) throw InputError(where, "", fmt::format("the result is not finite{}", at));
      if (link.whole_numbers && !is_whole(result)) {
        throw InputError(
            where, "",
            fmt::format("{}={} gives {}={}, not a whole number{}: {} takes integers, and a linked value "
                        "is never rounded",
                        link.source, format_sweep_value(source), link.key, format_sweep_value(result), at, link.key));
      }
      values.push_back(format_sweep_value(link.whole_numbers ? std::round(result) : result));
    }
    if (p < parameters_.size() && value_index_[p].empty()) {
      for (std::size_t v = 0; v < parameters_[p].values.size(); ++v) value_index_[p][parameters_[p].values[v]] = v;
    }
    if (link.key == kBatchKey) check_batch_values(values, "--link " + link.argument);
    link_sources_.push_back(p);
    link_values_.push_back(std::move(values));
  }
}

SweepPoint SweepGrid::point(std::size_t index) const {
  SweepPoint point;
  point.index = index;
  point.values.resize(parameters_.size());
  std::size_t rest = index;
  for (std::size_t i = parameters_.size(); i-- > 0;) {
    const std::size_t count = parameters_[i].values.size();
    point.values[i] = parameters_[i].values[rest % count];
    rest /= count;
  }
  point.workload = rest;
  const std::vector<std::string> linked = linked_values(point.values);
  point.values.insert(point.values.end(), linked.begin(), linked.end());
  return point;
}

std::vector<std::string> SweepGrid::linked_values(const std::vector<std::string>& swept_values) const {
  std::vector<std::string> values;
  for (std::size_t l = 0; l < links_.size(); ++l) {
    const std::size_t p = link_sources_[l];
    values.push_back(p == parameters_.size() ? link_values_[l].front()
                                             : link_values_[l].at(value_index_[p].at(swept_values.at(p))));
  }
  return values;
}

std::vector<std::string> SweepGrid::config_assignments(const std::vector<std::string>& swept_values) const {
  std::vector<std::string> assignments;
  for (std::size_t i = 0; i < parameters_.size(); ++i) {
    if (parameters_[i].key != kBatchKey) assignments.push_back(parameters_[i].key + "=" + swept_values.at(i));
  }
  const std::vector<std::string> linked = linked_values(swept_values);
  for (std::size_t l = 0; l < links_.size(); ++l) {
    if (links_[l].key != kBatchKey) assignments.push_back(links_[l].key + "=" + linked[l]);
  }
  return assignments;
}

std::vector<std::string> SweepGrid::overrides(const SweepPoint& point) const {
  return config_assignments(
      std::vector<std::string>(point.values.begin(), point.values.begin() + static_cast<long>(parameters_.size())));
}

std::vector<std::string> SweepGrid::first_values() const {
  std::vector<std::string> values;
  for (const SweepParameter& p : parameters_) values.push_back(p.values.front());
  return values;
}

std::optional<std::int64_t> SweepGrid::batch(const SweepPoint& point) const {
  const std::vector<std::string> keys = columns();
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (keys[i] == kBatchKey) return static_cast<std::int64_t>(*parse_finite_number(point.values.at(i)));
  }
  return std::nullopt;
}

std::vector<std::string> SweepGrid::columns() const {
  std::vector<std::string> keys;
  for (const SweepParameter& p : parameters_) keys.push_back(p.key);
  for (const SweepLink& link : links_) keys.push_back(link.key);
  return keys;
}

Shard parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  Shard shard;
  try {
    if (slash == std::string::npos) throw std::invalid_argument("no slash");
    std::size_t used_index = 0, used_count = 0;
    const std::string index = text.substr(0, slash), count = text.substr(slash + 1);
    shard.index = std::stoul(index, &used_index);
    shard.count = std::stoul(count, &used_count);
    if (used_index != index.size() || used_count != count.size()) throw std::invalid_argument("trailing text");
  } catch (const std::exception&) {
    throw InputError({{}, 0, 0, "--shard " + text}, "", "expected I/N, e.g. 0/4 for the first of four shards");
  }
  if (shard.count == 0 || shard.index >= shard.count) {
    throw InputError({{}, 0, 0, "--shard " + text}, "", "need 0 <= I < N");
  }
  return shard;
}

}  // namespace ergon
