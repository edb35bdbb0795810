#pragma once
// Named activity counters. Each simulated component registers the counters it keeps, as
// `component.action` with a unit (`glb.read`, words); reports, CSVs, sweeps and the energy pricing
// iterate over the registry instead of naming counters one by one (docs/architecture.md, "Counters").
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/action_catalogue.hpp"

namespace ergon {

struct CounterSpec {
  std::string name;         // component.action, e.g. "glb.read"
  std::string unit;         // what one count is: "words", "bytes", "MACs", "PE-cycles", ...
  std::string column;       // its column in reports: "glb_reads"
  std::string description;  // one line, for docs and `ergon config counters`
  // True: an energy table prices one count of it (an energy action). False: a statistic only.
  bool energy_action = true;
  // Set on the per-tensor share of a catalogue action (`glb.read_weights`): the tensor's name. Reports list
  // these after every other column; they are statistics (the total is what is priced).
  std::string tensor = {};

  std::string component() const { return name.substr(0, name.find('.')); }
  std::string action() const { return name.substr(name.find('.') + 1); }
};

// The counter of a catalogue action.
CounterSpec counter_spec(Action action);
// The counter of `tensor`'s share of a catalogue action that splits by tensor: `glb.read_weights`, column
// `weights_glb_reads`.
CounterSpec tensor_counter_spec(Action action, Tensor tensor);

// The values of a registry's counters at one moment, or their difference over an interval. Values of
// different registries combine by counter name.
class CounterValues {
 public:
  CounterValues() = default;
  CounterValues(std::shared_ptr<const std::vector<CounterSpec>> specs, std::vector<std::uint64_t> values);

  const std::vector<CounterSpec>& specs() const;
  std::size_t size() const { return values_.size(); }
  std::uint64_t value(std::size_t index) const { return values_[index]; }
  // 0 when no component registered `name`.
  std::uint64_t get(std::string_view name) const;
  bool has(std::string_view name) const;
  // Sets a registered counter; throws std::out_of_range when `name` is not registered.
  void set(std::string_view name, std::uint64_t value);
  // Counts since `before`, a snapshot of the same registry.
  CounterValues operator-(const CounterValues& before) const;
  // Adds `other`'s counts; counters this does not have yet are appended in `other`'s order.
  CounterValues& operator+=(const CounterValues& other);

 private:
  std::shared_ptr<const std::vector<CounterSpec>> specs_;
  std::vector<std::uint64_t> values_;
};

class CounterRegistry {
 public:
  CounterRegistry();
  // Registers a counter the component keeps at `source`, which must outlive the registry. Throws
  // std::logic_error for a name already registered or not of the form component.action.
  void add(CounterSpec spec, const std::uint64_t& source);
  // Registers the counter of catalogue action `action`.
  void add(Action action, const std::uint64_t& source);
  // Registers the per-tensor shares of `action` (one that splits by tensor).
  void add_tensor_shares(Action action, const TensorCounts& source);
  const std::vector<CounterSpec>& specs() const { return *specs_; }
  CounterValues snapshot() const;

 private:
  std::shared_ptr<std::vector<CounterSpec>> specs_;  // replaced, not changed, once a snapshot shares it
  std::vector<const std::uint64_t*> sources_;
};

}  // namespace ergon
