#pragma once
// Which layers' outputs stay in the GLB for their consumers (glb.keep_activations: when_fits) and what share
// of each layer's input its consumers then find on chip. The rule, in execution order: an output stays,
// whole, from its producer to its last consumer when at every layer in between the GLB (glb.size_kib, in
// words) holds it beside the outputs already kept there and that layer's own staging
// (LayerPlan::glb_staging_words, planned as if every operand came from DRAM); otherwise it is written back
// and read again, as with `never`. An output stays only if every consumer reads it as its input: not the
// network's outputs, nor an output read as a matmul's second operand (it streams as weights). An output read
// through a concat stays as its part of the concat, and a consumer finds on chip the parts kept. The first
// output that fits is kept first.
// With glb.keep_weights: when_fits, layers' weights are cached first, across inferences (a steady-state
// inference reads none of them), in execution order while they and the largest staging fit; the outputs then
// share what is left.
#include <cstdint>
#include <vector>

#include "arch/accelerator_config.hpp"
#include "arch/controller/layer_job.hpp"
#include "network/workload.hpp"

namespace ergon {

// Sets each job's residency; `batch_per_layer` is the batch of every workload layer.
void plan_residency(const Workload& workload, const std::vector<std::int64_t>& batch_per_layer,
                    const AcceleratorConfig& config, std::vector<LayerJob>& jobs);

}  // namespace ergon
