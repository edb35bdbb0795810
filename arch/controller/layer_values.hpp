#pragma once
// The functional check of cycle fidelity: each layer's real values (synthetic, at the layer's ifmap
// sparsity, seeded by the layer's position), alive while the layer runs, and the simulated ofmap compared
// with the reference computation.
#include <cstdint>
#include <memory>
#include <vector>

#include "arch/controller/layer_job.hpp"
#include "dataflows/layer_tensors.hpp"

namespace ergon {

class LayerValues {
 public:
  explicit LayerValues(const std::vector<LayerJob>& jobs) : jobs_(jobs), tensors_(jobs.size()) {}
  // The job's tensors, made on first use; null for a layer without a loop nest.
  LayerTensors* tensors(std::size_t job);
  // Outputs that differ from the reference computation.
  std::uint64_t mismatches(std::size_t job);
  void release(std::size_t job) { tensors_[job].reset(); }

 private:
  const std::vector<LayerJob>& jobs_;
  std::vector<std::unique_ptr<LayerTensors>> tensors_;
};

}  // namespace ergon
