#pragma once
// A dataflow plug-in: everything that depends on how layers map onto one kind of PE array. It plans each
// layer (its mapspace and mapping search, cached by layer shape) and walks the chosen mapping's steps (steps,
// folds or chunks) with the traffic of each; its step timing (dataflows/<name>/) times a step for its mapper
// and its transaction-level array. The arrays themselves are SystemC modules in arch/pe_array/impl/,
// registered under the same name (arch/pe_array/pe_arrays.hpp). Each plug-in registers itself from its own
// folder, dataflows/<name>/ (dataflows/registry.hpp), and is chosen by `pe_array.impl`; nothing outside the
// registry asks which dataflow is in use.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "arch/accelerator_config.hpp"
#include "arch/glb/tile_store.hpp"
#include "common/yaml_view.hpp"
#include "dataflows/access_prices.hpp"
#include "dataflows/dram_encoding.hpp"
#include "dataflows/layer_tensors.hpp"
#include "dataflows/mapping_summary.hpp"
#include "dataflows/step_traffic.hpp"
#include "network/layer.hpp"

namespace ergon {

// What a cycle-accurate step needs beyond its traffic (the step or fold, values staged in the GLB); each
// dataflow derives its own. Only built at cycle fidelity.
struct StepDetail {
  virtual ~StepDetail() = default;
};

// One step of a layer in execution order.
struct LayerStep {
  StepTraffic traffic;
  // Non-zero words among the ifmap words stored in DRAM that this step fetches: expected from the layer's
  // density at transaction level, counted on the values at cycle fidelity.
  std::uint64_t stored_ifmap_nonzeros = 0;
  std::shared_ptr<const StepDetail> detail;
};

// How the loader times a layer's operand streams (`glb.first_fill`, `glb.prefetch`): the defaults are the
// physical double buffer; the alternatives reproduce SCALE-Sim v2's read buffers.
struct StreamTiming {
  // The first bytes of each stream that count as loaded before the layer starts (SCALE-Sim issues the
  // first fill of a buffer's active half at negative cycles).
  std::uint64_t free_filter_bytes = 0;
  std::uint64_t free_ifmap_bytes = 0;
  // The loader fetches step after step without waiting for a free buffer, as SCALE-Sim times each
  // prefetch from the end of the previous one (at most kRunAheadSteps steps ahead).
  bool run_ahead = false;
};
constexpr std::size_t kRunAheadSteps = 4096;

// One layer planned for the array: the chosen mapping and how to walk it.
class LayerPlan {
 public:
  explicit LayerPlan(DramEncoding encoding) : encoding_(encoding) {}
  virtual ~LayerPlan() = default;
  const DramEncoding& encoding() const { return encoding_; }
  const StreamTiming& stream_timing() const { return stream_timing_; }
  void set_stream_timing(const StreamTiming& timing) { stream_timing_ = timing; }
  // The loop nest the cycle fidelity computes on real values and checks; null for element-wise layers.
  virtual const LoopNest* nest() const { return nullptr; }
  // Whether the next step may load while this one computes (else it waits for the array).
  virtual bool double_buffered() const = 0;
  // Whether the cycle-accurate array runs the steps (else they are timed at transaction level in both
  // fidelities).
  virtual bool cycle_accurate() const = 0;
  virtual MappingSummary mapping() const = 0;
  // The mapping as a loop nest, outer to inner, one line per loop (`ergon map`).
  virtual std::vector<std::string> loop_nest() const = 0;
  virtual std::string note() const { return ""; }  // for the layer's report entry
  // Words of the GLB the layer's own tiles occupy while it runs, its operands all coming from DRAM (what
  // glb.keep_activations leaves for the outputs kept on chip).
  std::uint64_t glb_staging_words() const { return glb_staging_words_; }
  void set_glb_staging_words(std::uint64_t words) { glb_staging_words_ = words; }
  using StepVisitor = std::function<void(LayerStep&&)>;
  // Walks the steps in execution order against what the GLB holds (`glb` is updated as steps are
  // staged). With `tensors` (cycle fidelity) each step carries its staged values.
  virtual void for_each_step(GlbContents& glb, const LayerTensors* tensors, const StepVisitor& visit) const = 0;

 private:
  DramEncoding encoding_;
  StreamTiming stream_timing_;
  std::uint64_t glb_staging_words_ = 0;
};

// Plans the layers of one run; caches mappings by layer shape (networks repeat shapes).
struct ResidencyPlanning;

class ILayerPlanner {
 public:
  virtual ~ILayerPlanner() = default;
  // Null when the dataflow does not run this kind of layer (element-wise layers then stream through the
  // GLB). `constraints`: the layer's entry in a mapping file (mapping_file.hpp), or null; the planner reads
  // the parameters it can pin and fails at any other key, or at an entry no mapping satisfies. Throws
  // MappingError naming what does not fit. `residency`: null when first planned; else what the GLB holds of
  // the layer's tensors, which a planner that can rank by it does (dataflows/resident_traffic.hpp).
  virtual std::unique_ptr<LayerPlan> plan(const Layer& layer, std::int64_t batch, const DramEncoding& encoding,
                                          const YamlView* constraints, const ResidencyPlanning* residency) = 0;
};

class IDataflow {
 public:
  virtual ~IDataflow() = default;
  // Checks the rest of the config once it is read (e.g. buffer sizes); fails at the offending key.
  virtual void check_config(YamlMap& root, const AcceleratorConfig& config) const = 0;
  // Whether the layer's activations are stored run-length coded in DRAM (else raw).
  virtual bool compresses_activations() const = 0;
  virtual std::unique_ptr<ILayerPlanner> planner(const AcceleratorConfig& config, const AccessPrices& prices) const = 0;
};

}  // namespace ergon
