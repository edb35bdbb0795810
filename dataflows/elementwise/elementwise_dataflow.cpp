#include "dataflows/elementwise/elementwise_dataflow.hpp"

#include <utility>

#include "dataflows/registry.hpp"

namespace ergon {

ElementwisePlan::ElementwisePlan(const ElementwiseWork& work, const AcceleratorConfig& config,
                                 const DramEncoding& encoding, std::string note)
    : LayerPlan(encoding),
      schedule_(work, static_cast<std::uint64_t>(words_of_kib(config.glb.size_kib, config.pe_array.word_bits)),
                static_cast<std::uint64_t>(config.pe_array.rows * config.pe_array.cols)),
      note_(std::move(note)) {
  // A chunk computes while the next one loads: two chunks, or the whole layer when it is one chunk.
  const std::uint64_t words = work.input_words + work.output_words;
  const std::uint64_t chunk = (words + schedule_.chunk_count() - 1) / schedule_.chunk_count();
  set_glb_staging_words(std::min(words, 2 * chunk));
}

MappingSummary ElementwisePlan::mapping() const {
  MappingSummary summary;
  summary.parameters = {{"dataflow", "elementwise"}, {"chunks", schedule_.chunk_count()}};
  return summary;
}

std::vector<std::string> ElementwisePlan::loop_nest() const {
  return {"for chunk in [0, " + std::to_string(schedule_.chunk_count()) +
          ")  # at most half the GLB each, one operation per PE per cycle"};
}

void ElementwisePlan::for_each_step(GlbContents& /*glb*/, const LayerTensors* /*tensors*/,
                                    const StepVisitor& visit) const {
  const std::uint64_t chunks = schedule_.chunk_count();
  for (std::uint64_t i = 0; i < chunks; ++i) {
    LayerStep step;
    step.traffic = schedule_.chunk(i);
    step.stored_ifmap_nonzeros = DramEncoding::expected(step.traffic.ifmap_dram_stored_words, encoding().ifmap_density);
    visit(std::move(step));
  }
}

std::unique_ptr<LayerPlan> plan_elementwise(const Layer& layer, std::int64_t batch, const AcceleratorConfig& config,
                                            const DramEncoding& encoding) {
  ElementwiseWork work;
  if (!elementwise_work(layer, batch, work)) return nullptr;
  return std::make_unique<ElementwisePlan>(
      work, config, encoding, "element-wise, streamed through the GLB (timed at transaction level in both fidelities)");
}

ERGON_REGISTER(StreamingPlanner, "elementwise", &plan_elementwise)

}  // namespace ergon
