#include "sim/residency_plan.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "dataflows/registry.hpp"

namespace ergon {
namespace {

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

// The executed layers whose outputs reach a layer's input through layers that move no data.
struct Sources {
  std::vector<std::size_t> layers;
};

class ResidencyPlanner {
 public:
  ResidencyPlanner(const Workload& workload, const std::vector<std::int64_t>& batch, std::vector<LayerJob>& jobs)
      : workload_(workload), batch_(batch), jobs_(jobs), job_of_(workload.layers().size(), kNone) {
    for (std::size_t j = 0; j < jobs.size(); ++j) job_of_[jobs[j].layer_index] = j;
  }

  void plan(std::uint64_t pool_words, bool weights, bool activations, const AcceleratorConfig& config) {
    const std::uint64_t cached = weights ? cache_weights(pool_words, config) : 0;
    if (!activations) return;
    find_consumers();
    keep_outputs(pool_words - cached);
    share_inputs();
  }

 private:
  std::uint64_t output_words(std::size_t layer) const {
    return static_cast<std::uint64_t>(workload_.layers()[layer].output_shape.elements()) *
           static_cast<std::uint64_t>(batch_[layer]);
  }
  std::optional<std::size_t> index_of(const std::string& name) const {
    const Layer* layer = workload_.find_layer(name);
    if (layer == nullptr) return std::nullopt;
    return static_cast<std::size_t>(layer - workload_.layers().data());
  }
  void collect(std::size_t layer, Sources& sources) const {
    if (job_of_[layer] != kNone) {
      sources.layers.push_back(layer);
      return;
    }
    const Layer& l = workload_.layers()[layer];
    const bool passes_data =
        l.op == OpKind::kActivation || l.op == OpKind::kLayout || l.op == OpKind::kSlice || l.op == OpKind::kConcat;
    if (!passes_data) return;  // the network input: in DRAM
    for (const std::string& name : l.input_names) {
      if (const auto producer = index_of(name)) collect(*producer, sources);
    }
  }

  // Every executed layer's consumers (by job), and the outputs that must be written back.
  void find_consumers() {
    const std::size_t n = workload_.layers().size();
    last_consumer_.assign(n, kNone);
    keepable_.assign(n, true);
    inputs_.assign(jobs_.size(), {});
    for (std::size_t j = 0; j < jobs_.size(); ++j) {
      const Layer& consumer = workload_.layers()[jobs_[j].layer_index];
      for (std::size_t k = 0; k < consumer.input_names.size(); ++k) {
        const auto producer = index_of(consumer.input_names[k]);
        if (!producer) continue;
        Sources sources;
        collect(*producer, sources);
        const bool weights = consumer.second_input_is_weights() && k == 1;
        for (const std::size_t source : sources.layers) {
          if (weights) keepable_[source] = false;
          last_consumer_[source] = last_consumer_[source] == kNone ? j : std::max(last_consumer_[source], j);
        }
        if (!weights) inputs_[j].push_back({output_words(*producer), sources});
      }
    }
  }

  // Weights cached across inferences, layer by layer in execution order while the cache and every layer's
  // staging fit the pool; the words cached.
  // A weight takes layer_weight_bits / word_bits of a pool word.
  std::uint64_t cache_weights(std::uint64_t pool_words, const AcceleratorConfig& config) {
    std::uint64_t staging = 0;
    for (const LayerJob& job : jobs_) staging = std::max(staging, job.plan->glb_staging_words());
    std::uint64_t cached = 0;
    for (LayerJob& job : jobs_) {
      const Layer& layer = workload_.layers()[job.layer_index];
      if (layer.second_input_is_weights() || layer.params_count == 0) continue;  // activations, or none
      const double weight_word_share =
          static_cast<double>(layer_weight_bits(config, layer)) / config.pe_array.word_bits;
      const auto words =
          static_cast<std::uint64_t>(std::ceil(static_cast<double>(layer.params_count) * weight_word_share));
      if (cached + words + staging > pool_words) break;
      cached += words;
      job.residency.weights_on_chip = true;
    }
    return cached;
  }

  void keep_outputs(std::uint64_t pool_words) {
    kept_.assign(workload_.layers().size(), false);
    std::vector<std::uint64_t> held(jobs_.size(), 0);  // words kept on chip while each job runs
    for (std::size_t p = 0; p < jobs_.size(); ++p) {
      const std::size_t layer = jobs_[p].layer_index;
      const std::size_t last = last_consumer_[layer];
      if (!keepable_[layer] || last == kNone || last <= p) continue;
      const std::uint64_t words = output_words(layer);
      bool fits = true;
      for (std::size_t j = p; j <= last && fits; ++j) {
        fits = jobs_[j].plan->glb_staging_words() + held[j] + words <= pool_words;
      }
      if (!fits) continue;
      kept_[layer] = true;
      jobs_[p].residency.output_kept = true;
      for (std::size_t j = p; j <= last; ++j) held[j] += words;
    }
  }

  void share_inputs() {
    for (std::size_t j = 0; j < jobs_.size(); ++j) {
      std::uint64_t total = 0, on_chip = 0;
      for (const Input& input : inputs_[j]) {
        total += input.words;
        // Through a concat each kept producer holds its own part of the concat's region.
        std::uint64_t kept_words = 0;
        for (const std::size_t source : input.sources.layers) kept_words += kept_[source] ? output_words(source) : 0;
        const bool whole =
            !input.sources.layers.empty() && std::all_of(input.sources.layers.begin(), input.sources.layers.end(),
                                                         [this](std::size_t source) { return kept_[source]; });
        on_chip += whole ? input.words : std::min(kept_words, input.words);
      }
      jobs_[j].residency.input_share_on_chip =
          total > 0 ? static_cast<double>(on_chip) / static_cast<double>(total) : 0.0;
    }
  }

  struct Input {
    std::uint64_t words = 0;
    Sources sources;
  };
  const Workload& workload_;
  const std::vector<std::int64_t>& batch_;
  std::vector<LayerJob>& jobs_;
  std::vector<std::size_t> job_of_;         // by layer: its job, or kNone
  std::vector<std::size_t> last_consumer_;  // by layer: the last job reading its output, or kNone
  std::vector<bool> keepable_, kept_;       // by layer
  std::vector<std::vector<Input>> inputs_;  // by job: its inputs (not a matmul's weights)
};

}  // namespace

void plan_residency(const Workload& workload, const std::vector<std::int64_t>& batch_per_layer,
                    const AcceleratorConfig& config, std::vector<LayerJob>& jobs) {
  if (!config.glb.keeps_tensors()) return;
  ResidencyPlanner(workload, batch_per_layer, jobs)
      .plan(static_cast<std::uint64_t>(words_of_kib(config.glb.size_kib, config.pe_array.word_bits)),
            config.glb.keep_weights == KeepActivations::kWhenFits,
            config.glb.keep_activations == KeepActivations::kWhenFits, config);
}

}  // namespace ergon
