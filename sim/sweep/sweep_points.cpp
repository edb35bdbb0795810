#include "sim/sweep/sweep_points.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "common/input_error.hpp"
#include "common/text.hpp"

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

// Shortest text that reads back as the same number; ranges are rounded to 12 significant digits so
// 0.1 steps do not print as 0.30000000000000004.
std::string format_value(double value) {
  return fmt::format("{}", *parse_finite_number(fmt::format("{:.12g}", value)));  // subnormals too
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
    values.push_back(format_value(value));
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
  for (const std::string& item : items) values.push_back(all_numbers ? format_value(number(item, argument)) : item);
  for (std::size_t i = 0; i < values.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (values[i] == values[j]) fail(argument, "'" + items[i] + "' is in the list twice");
    }
  }
  return values;
}

}  // namespace

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

void check_distinct_keys(const std::vector<SweepParameter>& parameters, const std::vector<std::string>& overrides) {
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
}

SweepGrid::SweepGrid(std::vector<std::string> workloads, std::vector<SweepParameter> parameters)
    : workloads_(std::move(workloads)), parameters_(std::move(parameters)) {
  size_ = workloads_.size();
  for (const SweepParameter& p : parameters_) {
    if (p.values.empty()) throw InputError({{}, 0, 0, "--param " + p.key}, "", "no values");
    if (size_ > std::numeric_limits<std::size_t>::max() / p.values.size()) {
      throw InputError({{}, 0, 0, "--param " + p.key}, "", "the sweep has too many points to count");
    }
    size_ *= p.values.size();
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
  return point;
}

std::vector<std::string> SweepGrid::overrides(const SweepPoint& point) const {
  std::vector<std::string> assignments;
  for (std::size_t i = 0; i < parameters_.size(); ++i)
    assignments.push_back(parameters_[i].key + "=" + point.values[i]);
  return assignments;
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
