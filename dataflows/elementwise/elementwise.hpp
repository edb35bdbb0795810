#pragma once
// Element-wise layers (add, mul, upsample) on the PE array: their tensors stream from DRAM through the
// GLB and the ifmap bus into the PEs, one operation per PE per cycle, and results return over the psum
// bus to the GLB and DRAM. The layer is cut into chunks that fit half the GLB (double buffering); each
// chunk is one step. Layout-only layers (concat, slice) and activations (applied as results are written)
// move no data.
#include <cstdint>
#include <vector>

#include "dataflows/step_traffic.hpp"
#include "network/layer.hpp"

namespace ergon {

struct ElementwiseWork {
  std::uint64_t input_words = 0;  // all inputs, over the batch
  std::uint64_t output_words = 0;
  std::uint64_t operations = 0;
};

// What the layer reads, writes and computes; false for layers that move no data.
bool elementwise_work(const Layer& layer, std::int64_t images, ElementwiseWork& work);

// The layer in chunks of at most half the GLB; chunk `index` of `chunk_count` as a step (generated on
// demand: a large layer has many).
class ElementwiseSchedule {
 public:
  ElementwiseSchedule(const ElementwiseWork& work, std::uint64_t glb_words, std::uint64_t pe_count);
  std::uint64_t chunk_count() const { return chunks_; }
  StepTraffic chunk(std::uint64_t index) const;

 private:
  ElementwiseWork work_;
  std::uint64_t pe_count_;
  std::uint64_t chunks_;
};

}  // namespace ergon
