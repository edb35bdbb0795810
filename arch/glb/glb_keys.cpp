// glb: the global buffer's model and capacity; the model adds its own keys (impl/*_keys.cpp).
#include "arch/components.hpp"
#include "arch/config_keys.hpp"

namespace ergon {
namespace {

AcceleratorConfigSection glb_keys() {
  AcceleratorConfigSection section = config_section("glb", true);
  section.keys = {
      plugin_key<AcceleratorConfig>("glb.impl", ERGON_FIELD(glb.impl), glb_impl_names,
                                    "global-buffer implementation (a registered model)"),
      number_key<AcceleratorConfig>("glb.size_kib", ERGON_FIELD(glb.size_kib), NumberRule{0.0, kMaxGlbKib, true}, "KiB",
                                    "GLB capacity for ifmaps and psums (KiB = 1024 B)", true),
      number_key<AcceleratorConfig>(
          "glb.filter_size_kib", ERGON_FIELD(glb.filter_size_kib), NumberRule{0.0, kMaxGlbKib, false}, "KiB",
          "separate filter store; 0 = filters pass through the GLB (systolic: the filter buffer, required). Row "
          "stationary: filter tiles the mapping keeps on chip must fit it; filters streamed from DRAM to the PEs "
          "pass through it. Systolic: each of the ifmap, filter and ofmap buffers must hold one double-buffered "
          "operand wavefront, 2 x max(rows, cols) words"),
      choice_key<AcceleratorConfig>(
          "glb.keep_activations", ERGON_FIELD(glb.keep_activations),
          ChoiceNames<KeepActivations>{{"never", KeepActivations::kNever}, {"when_fits", KeepActivations::kWhenFits}},
          "`when_fits`: a layer's output stays in the GLB (glb.size_kib) for its consumers, never written to DRAM, "
          "when it fits beside the staging of every layer until its last consumer and the outputs already kept; "
          "`never`: every output is written back and read again (the Eyeriss test system); cycle fidelity: systolic "
          "arrays only"),
      choice_key<AcceleratorConfig>(
          "glb.keep_weights", ERGON_FIELD(glb.keep_weights),
          ChoiceNames<KeepActivations>{{"never", KeepActivations::kNever}, {"when_fits", KeepActivations::kWhenFits}},
          "`when_fits`: the GLB (glb.size_kib) caches layers' weights across inferences, in execution order while "
          "they fit beside every layer's staging (the Coral Edge TPU's parameter cache), so a steady-state inference "
          "reads them from no DRAM; `never`: every inference reads every weight; cycle fidelity: systolic arrays only"),
  };
  return section;
}

}  // namespace
}  // namespace ergon

ERGON_REGISTER(ergon::AcceleratorConfigSection, "glb", ergon::glb_keys(), ergon::config_order::kGlb)
