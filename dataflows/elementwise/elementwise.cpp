#include "dataflows/elementwise/elementwise.hpp"

#include <algorithm>

namespace ergon {

bool elementwise_work(const Layer& layer, std::int64_t images, ElementwiseWork& work) {
  if (layer.op != OpKind::kAdd && layer.op != OpKind::kMul && layer.op != OpKind::kUpsample &&
      layer.op != OpKind::kElementwise) {
    return false;
  }
  const auto n = static_cast<std::uint64_t>(images);
  work = ElementwiseWork{};
  for (const auto& shape : layer.input_shapes) work.input_words += n * static_cast<std::uint64_t>(shape.elements());
  work.output_words = n * static_cast<std::uint64_t>(layer.output_shape.elements());
  // Shape inference counted them (add: one addition per extra input; mul and upsample: one per output).
  work.operations = n * layer.vector_ops;
  return true;
}

ElementwiseSchedule::ElementwiseSchedule(const ElementwiseWork& work, std::uint64_t glb_words, std::uint64_t pe_count)
    : work_(work), pe_count_(std::max<std::uint64_t>(pe_count, 1)) {
  const std::uint64_t words = work.input_words + work.output_words;
  const std::uint64_t chunk_budget = std::max<std::uint64_t>(glb_words / 2, 1);
  chunks_ = std::max<std::uint64_t>((words + chunk_budget - 1) / chunk_budget, 1);
}

StepTraffic ElementwiseSchedule::chunk(std::uint64_t index) const {
  const auto share = [this, index](std::uint64_t total) {  // even split, remainder to the first chunks
    return total / chunks_ + (index < total % chunks_ ? 1 : 0);
  };
  StepTraffic t;
  const std::uint64_t inputs = share(work_.input_words), outputs = share(work_.output_words);
  const std::uint64_t operations = share(work_.operations);
  t.ifmap_dram_words = t.ifmap_dram_stored_words = inputs;
  t.ofmap_dram_words = outputs;
  t.ifmap_bus_words = inputs;
  t.psum_bus_words = outputs;
  t.psum_glb_writes = outputs;
  t.glb_writes = inputs + outputs;
  t.glb_reads = inputs + outputs;
  t.active_pes = std::min(operations, pe_count_);
  t.compute_cycles = (operations + pe_count_ - 1) / pe_count_;
  return t;
}

}  // namespace ergon
