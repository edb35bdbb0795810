#pragma once
// The catalogue of priced actions and of the tensors they move: each action a component counts is
// declared here once, with its unit, report column, description and the rules that price it from an
// energy table's five-key form and from an Accelergy ERT (docs/architecture.md, "Adding a priced action").
// Modules register their counters from it, the energy tables price it, reports list it.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace ergon {

// The tensors of a layer, as Timeloop names its data spaces: weights (filters), inputs (ifmaps) and
// outputs (partial sums and the finished ofmap).
enum class Tensor : std::uint8_t { kWeights, kInputs, kOutputs };
inline constexpr std::size_t kTensorCount = 3;
inline constexpr std::array<Tensor, kTensorCount> kAllTensors = {Tensor::kWeights, Tensor::kInputs, Tensor::kOutputs};
std::string_view tensor_name(Tensor tensor);  // "weights", "inputs", "outputs"

// One count per tensor (words or bytes, as the action it splits).
struct TensorCounts {
  std::array<std::uint64_t, kTensorCount> counts{};
  std::uint64_t& operator[](Tensor t) { return counts[static_cast<std::size_t>(t)]; }
  std::uint64_t operator[](Tensor t) const { return counts[static_cast<std::size_t>(t)]; }
  std::uint64_t total() const { return counts[0] + counts[1] + counts[2]; }
  TensorCounts& operator+=(const TensorCounts& o) {
    for (std::size_t i = 0; i < kTensorCount; ++i) counts[i] += o.counts[i];
    return *this;
  }
  bool operator==(const TensorCounts& o) const { return counts == o.counts; }
};

// Every action, in the order reports list them (PE array, NoC, GLB, DRAM).
enum class Action : std::uint8_t {
  kMacCompute,
  kMacGated,
  kRfIfmapRead,
  kRfIfmapWrite,
  kRfFilterRead,
  kRfFilterWrite,
  kRfPsumRead,
  kRfPsumWrite,
  kPeBusyCycle,
  kNocFilterTransfer,
  kNocIfmapTransfer,
  kNocPsumTransfer,
  kNocPeHop,
  kGlbRead,
  kGlbWrite,
  kDramRead,
  kDramWrite,
};
inline constexpr std::size_t kActionCount = 17;

// Which tensors an action's counts belong to.
enum class TensorOf : std::uint8_t {
  kNone,     // a statistic of no tensor (pe.busy_cycle) or the MACs
  kWeights,  // every count moves a weight
  kInputs,   // ... an input
  kOutputs,  // ... an output or partial sum
  kSplit,    // counted per tensor as well: the component keeps one count per tensor beside the total
};

// How the five-key energy table form (`mac_pj`, `rf_pj`, `inter_pe_pj`, `glb_pj`, `dram_pj`) prices it.
enum class FiveKeyPrice : std::uint8_t {
  kAsGiven,  // the key's energy per count
  kFree,     // 0 (the key is named as its source): gated MACs, bus transfers (the GLB's energy covers them)
  kPerWord,  // the key's energy per access of one word (DRAM)
};

struct ActionSpec {
  Action id;
  std::string_view name;         // component.action
  std::string_view unit;         // what one count is
  std::string_view column;       // its column in reports
  std::string_view description;  // one line
  bool energy_action;            // priced by energy tables (false: a statistic)
  TensorOf tensor;
  std::string_view five_key;  // the five-key form's key ("" for statistics)
  FiveKeyPrice five_key_price;
  // The ERT actions that price it, first found wins, on the ERT component whose name says the action's
  // component (mac, rf, noc, glb, dram) and, for the register files, its tensor.
  std::vector<std::string_view> ert_actions;

  std::string_view component() const { return name.substr(0, name.find('.')); }
  std::string_view action() const { return name.substr(name.find('.') + 1); }
};

// One count per catalogue action, indexed by Action: what a cost model estimates a mapping does, priced
// by ActionPrices.
struct ActionCounts {
  std::array<std::uint64_t, kActionCount> count{};
  std::uint64_t operator[](Action action) const { return count[static_cast<std::size_t>(action)]; }
  std::uint64_t& operator[](Action action) { return count[static_cast<std::size_t>(action)]; }
  ActionCounts& operator+=(const ActionCounts& o) {
    for (std::size_t i = 0; i < kActionCount; ++i) count[i] += o.count[i];
    return *this;
  }
  bool operator==(const ActionCounts& o) const { return count == o.count; }
};

// A price per catalogue action (pJ per count), indexed by Action.
struct ActionPrices {
  std::array<double, kActionCount> pj{};
  double operator[](Action action) const { return pj[static_cast<std::size_t>(action)]; }
  double& operator[](Action action) { return pj[static_cast<std::size_t>(action)]; }
};

// Every action, in Action order.
const std::vector<ActionSpec>& action_catalogue();
const ActionSpec& action_spec(Action action);
// The action named `name` (component.action), or nullptr.
const ActionSpec* find_action(std::string_view name);

}  // namespace ergon
