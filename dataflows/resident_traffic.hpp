#pragma once
// What the GLB holds of a layer's tensors from other layers and inferences (glb.keep_activations,
// glb.keep_weights; sim/residency_plan.hpp), and how it trims the layer's steps: the share of each step's
// ifmap DRAM words found on chip (rounded on the running totals, so the layer's sums are exact), the
// weights when cached, and the write-back when the output is kept. What leaves the DRAM traffic leaves the
// GLB's too: no deposit of what is already there, no read of what is not written back. The loader trims the
// steps it issues; a planner trims the steps it ranks, so the mapping is chosen for the traffic left.
#include <cstdint>

#include "dataflows/dataflow.hpp"

namespace ergon {

struct LayerResidency {
  double input_share_on_chip = 0;  // of the input words the layer would read from DRAM, the share kept on chip
  bool output_kept = false;        // its output stays in the GLB for its consumers and is never written back
  bool weights_on_chip = false;    // its weights are cached in the GLB across inferences: never read from DRAM
  bool any() const { return input_share_on_chip > 0 || output_kept || weights_on_chip; }
};

// A layer planned again once the residency is known: ranked by the traffic left, among the candidates
// staging no more GLB words than the residency plan left them.
struct ResidencyPlanning {
  LayerResidency residency;
  std::uint64_t max_staging_words = 0;
};

class ResidentTraffic {
 public:
  ResidentTraffic(const LayerResidency& residency, const DramEncoding& encoding)
      : residency_(residency), encoding_(encoding) {}

  struct Moved {
    std::uint64_t input_on_chip_bytes = 0;  // as the step would have read them
    std::uint64_t output_kept_words = 0;
    std::uint64_t weight_on_chip_bytes = 0;
  };
  Moved apply(LayerStep& step);

 private:
  // A count's running total and the part of it taken so far.
  struct Running {
    std::uint64_t seen = 0, taken = 0;
    std::uint64_t take(std::uint64_t words, double share);
  };
  LayerResidency residency_;
  DramEncoding encoding_;
  Running ifmap_, stored_, nonzeros_;
};

}  // namespace ergon
