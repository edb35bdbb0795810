#include "common/counter_registry.hpp"

#include <algorithm>
#include <stdexcept>

namespace ergon {
namespace {

const std::vector<CounterSpec>& no_specs() {
  static const std::vector<CounterSpec> empty;
  return empty;
}

bool is_lower_identifier(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

}  // namespace

CounterValues::CounterValues(std::shared_ptr<const std::vector<CounterSpec>> specs, std::vector<std::uint64_t> values)
    : specs_(std::move(specs)), values_(std::move(values)) {}

const std::vector<CounterSpec>& CounterValues::specs() const {
  return specs_ ? *specs_ : no_specs();
}

std::uint64_t CounterValues::get(std::string_view name) const {
  const auto& all = specs();
  for (std::size_t i = 0; i < values_.size(); ++i) {
    if (all[i].name == name) return values_[i];
  }
  return 0;
}

bool CounterValues::has(std::string_view name) const {
  const auto& all = specs();
  return std::any_of(all.begin(), all.end(), [name](const CounterSpec& spec) { return spec.name == name; });
}

void CounterValues::set(std::string_view name, std::uint64_t value) {
  const auto& all = specs();
  for (std::size_t i = 0; i < values_.size(); ++i) {
    if (all[i].name == name) {
      values_[i] = value;
      return;
    }
  }
  throw std::out_of_range("no counter named '" + std::string(name) + "' is registered");
}

CounterValues CounterValues::operator-(const CounterValues& before) const {
  if (before.specs_ != specs_ && before.size() != 0) {
    throw std::logic_error("counter values of different registries cannot be subtracted");
  }
  CounterValues difference = *this;
  for (std::size_t i = 0; i < before.size(); ++i) difference.values_[i] -= before.values_[i];
  return difference;
}

CounterValues& CounterValues::operator+=(const CounterValues& other) {
  if (size() == 0) return *this = other;
  if (other.specs_ == specs_) {
    for (std::size_t i = 0; i < values_.size(); ++i) values_[i] += other.values_[i];
    return *this;
  }
  auto merged = std::make_shared<std::vector<CounterSpec>>(specs());
  for (std::size_t j = 0; j < other.size(); ++j) {
    const CounterSpec& spec = other.specs()[j];
    const auto found = std::find_if(merged->begin(), merged->end(),
                                    [&spec](const CounterSpec& mine) { return mine.name == spec.name; });
    if (found == merged->end()) {
      merged->push_back(spec);
      values_.push_back(other.values_[j]);
    } else {
      values_[static_cast<std::size_t>(found - merged->begin())] += other.values_[j];
    }
  }
  specs_ = std::move(merged);
  return *this;
}

CounterSpec counter_spec(Action action) {
  const ActionSpec& a = action_spec(action);
  return {std::string(a.name), std::string(a.unit), std::string(a.column), std::string(a.description), a.energy_action};
}

CounterSpec tensor_counter_spec(Action action, Tensor tensor) {
  const ActionSpec& a = action_spec(action);
  const std::string name(tensor_name(tensor));
  CounterSpec spec{std::string(a.name) + "_" + name, std::string(a.unit), name + "_" + std::string(a.column),
                   std::string(a.description) + ", of the " + name, false};
  spec.tensor = name;
  return spec;
}

CounterRegistry::CounterRegistry() : specs_(std::make_shared<std::vector<CounterSpec>>()) {}

void CounterRegistry::add(CounterSpec spec, const std::uint64_t& source) {
  const auto dot = spec.name.find('.');
  if (dot == std::string::npos || !is_lower_identifier(spec.component()) || !is_lower_identifier(spec.action())) {
    throw std::logic_error("counter name '" + spec.name + "' is not of the form component.action");
  }
  for (const CounterSpec& existing : *specs_) {
    if (existing.name == spec.name) throw std::logic_error("counter '" + spec.name + "' is registered twice");
  }
  auto specs = std::make_shared<std::vector<CounterSpec>>(*specs_);
  specs->push_back(std::move(spec));
  specs_ = std::move(specs);
  sources_.push_back(&source);
}

CounterValues CounterRegistry::snapshot() const {
  std::vector<std::uint64_t> values;
  values.reserve(sources_.size());
  for (const std::uint64_t* source : sources_) values.push_back(*source);
  return CounterValues(specs_, std::move(values));
}

void CounterRegistry::add(Action action, const std::uint64_t& source) {
  add(counter_spec(action), source);
}

void CounterRegistry::add_tensor_shares(Action action, const TensorCounts& source) {
  if (action_spec(action).tensor != TensorOf::kSplit) {
    throw std::logic_error("action '" + std::string(action_spec(action).name) + "' does not split by tensor");
  }
  for (Tensor tensor : kAllTensors) {
    add(tensor_counter_spec(action, tensor), source.counts[static_cast<std::size_t>(tensor)]);
  }
}

}  // namespace ergon
