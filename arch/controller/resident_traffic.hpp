#pragma once
// Takes out of a layer's steps the activation traffic the GLB holds on chip (LayerResidency): the share of
// each step's ifmap DRAM words found on chip (rounded on the running totals, so the layer's sums are exact)
// and, when the output is kept, its write-back. What leaves the DRAM traffic leaves the GLB's too: no
// deposit of what is already there, no read of what is not written back.
#include <cstdint>

#include "arch/controller/layer_job.hpp"
#include "dataflows/dataflow.hpp"

namespace ergon {

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
