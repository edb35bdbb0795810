// A systolic array's keys: its dataflow, the split of its buffers and how they fetch operand streams
// (SCALE-Sim's assumptions, docs/config.md "Operand traffic").
#include <fmt/format.h>

#include "arch/config_keys.hpp"
#include "dataflows/systolic/systolic_dataflow.hpp"

namespace ergon {
namespace {

const AppliesWhen kSystolic{"pe_array.impl", "systolic"};

ChoiceNames<std::optional<SystolicDataflow>> dataflow_names() {
  ChoiceNames<std::optional<SystolicDataflow>> names;
  for (SystolicDataflow dataflow :
       {SystolicDataflow::kOutputStationary, SystolicDataflow::kWeightStationary, SystolicDataflow::kInputStationary}) {
    names.emplace_back(systolic_dataflow_name(dataflow), dataflow);
  }
  names.emplace_back("auto", std::nullopt);
  return names;
}

// The arrays whose plug-in declares pe_array.dataflow.
std::vector<std::string> arrays_with_dataflow_choice() {
  std::vector<std::string> arrays;
  for (const auto& item : AcceleratorConfigSections::instance().items()) {
    for (const AcceleratorConfigKey& key : item.entry.keys) {
      if (key.info.path == "pe_array.dataflow") arrays.push_back(item.entry.applies.value);
    }
  }
  return arrays;
}

AcceleratorConfigSection array_keys() {
  AcceleratorConfigSection section = config_section("pe_array", false, kSystolic);
  AcceleratorConfigKey dataflow = choice_key<AcceleratorConfig>(
      "pe_array.dataflow", ERGON_FIELD(pe_array.dataflow), dataflow_names(),
      "output, weight or input stationary, or `auto`: each layer's own, chosen by `mapper.objective` "
      "(`docs/dataflow.md`)");
  dataflow.refuse = [](const YamlView& present, const AcceleratorConfig& config) {
    present.fail("a " + config.pe_array.impl +
                 " array has one dataflow; remove it, or set impl to an array with a choice (" +
                 join_alternatives(arrays_with_dataflow_choice()) + ")");
  };
  AcceleratorConfigKey accumulator = int_key<AcceleratorConfig>(
      "pe_array.accumulator_bits", ERGON_FIELD(pe_array.accumulator_bits), IntRule{0, 64}, "bits",
      "width of a partial sum in the ofmap buffer and when spilled to DRAM (int8 engines: 32); 0 = word_bits");
  accumulator.info.range = "0, or word_bits to 64";
  accumulator = with_check<AcceleratorConfig>(accumulator, [](YamlMap& map, const AcceleratorConfig& config) {
    const int bits = config.pe_array.accumulator_bits;
    if (bits != 0 && (bits < config.pe_array.word_bits || bits % 8 != 0)) {
      map.at("accumulator_bits")
          .fail(fmt::format("give 0 or a whole number of bytes of at least pe_array.word_bits ({} bits); got {}",
                            config.pe_array.word_bits, bits));
    }
  });
  AcceleratorConfigKey weights = int_key<AcceleratorConfig>(
      "pe_array.weight_bits", ERGON_FIELD(pe_array.weight_bits), IntRule{0, 16}, "bits",
      "width of a weight in the filter buffer and DRAM (int4 x int8 engines: 4); the array multiplies it with "
      "word_bits activations; 0 = word_bits");
  weights.info.range = "0, 4, 8 or 16";
  weights = with_check<AcceleratorConfig>(weights, [](YamlMap& map, const AcceleratorConfig& config) {
    const int bits = config.pe_array.weight_bits;
    if (bits != 0 && bits != 4 && bits != 8 && bits != 16) {
      map.at("weight_bits").fail(fmt::format("give 0 (word_bits), 4, 8 or 16; got {}", bits));
    }
  });
  AcceleratorConfigKey depthwise = choice_key<AcceleratorConfig>(
      "pe_array.depthwise", ERGON_FIELD(pe_array.depthwise),
      ChoiceNames<DepthwiseMode>{{"serial", DepthwiseMode::kSerial},
                                 {"channel_groups", DepthwiseMode::kChannelGroups},
                                 {"auto", DepthwiseMode::kAuto}},
      "grouped and depthwise convolutions: one group after another (SCALE-Sim), several groups at once as a dense "
      "convolution with block-diagonal filters whose zero weights are gated, or each layer's better one by "
      "`mapper.objective` (`docs/dataflow.md`); channel groups at transaction level only");
  AcceleratorConfigKey pipelined = bool_key<AcceleratorConfig>(
      "pe_array.pipelined_folds", ERGON_FIELD(pe_array.pipelined_folds),
      "the PEs double-buffer the stationary operand (TPU v1's weight tiles, Gemmini's PE registers) or the "
      "accumulators: a fold's shift-in or drain overlaps the neighbouring fold's stream and the wavefront skew is "
      "paid once per layer; false: each fold pays its shift-in, stream and skew (SCALE-Sim). Transaction level only");
  section.keys = {dataflow, accumulator, weights, depthwise, pipelined};
  return section;
}

// SCALE-Sim's operand traffic needs buffers that stream operand matrices: elsewhere only the physical
// default (the first choice) is accepted.
template <typename T>
AcceleratorConfigKey operand_key(std::string path, T GlbConfig::*field, ChoiceNames<T> names, std::string help) {
  const auto access = [field](auto& config) -> auto& {
    return config.glb.*field;
  };
  AcceleratorConfigKey key = choice_key<AcceleratorConfig>(std::move(path), access, names, std::move(help));
  key.refuse = [names](const YamlView& present, const AcceleratorConfig& config) {
    const std::string leaf = key_leaf(present.path());
    if (value_of(names, read_choice(present, leaf, spellings(names))) == names.front().second) return;
    present.fail("a " + config.pe_array.impl +
                 " array fetches tiles, not operand streams; SCALE-Sim's operand traffic needs a systolic array "
                 "(pe_array.impl: systolic)");
  };
  return key;
}

AcceleratorConfigSection buffer_keys() {
  AcceleratorConfigSection section = config_section("glb", false, kSystolic);
  AcceleratorConfigKey unified = bool_key<AcceleratorConfig>(
      "glb.unified", ERGON_FIELD(glb.unified),
      "one buffer of `size_kib` for ifmaps, filters and ofmaps, split per layer by the planner (NVDLA's "
      "convolution buffer, Gemmini's scratchpad); no `filter_size_kib` or `ofmap_size_kib` then");
  unified = with_check<AcceleratorConfig>(unified, [](YamlMap& map, const AcceleratorConfig& config) {
    if (config.glb.unified && config.glb.filter_size_kib > 0) {
      map.at("unified").fail(
          "a unified buffer holds the filters within glb.size_kib: remove glb.filter_size_kib "
          "or set glb.unified: false");
    }
  });
  AcceleratorConfigKey ofmap = number_key<AcceleratorConfig>(
      "glb.ofmap_size_kib", ERGON_FIELD(glb.ofmap_size_kib), NumberRule{0.0, kMaxGlbKib, false}, "KiB",
      "the part of `size_kib` for ofmaps (the rest holds ifmaps); 0 = half");
  ofmap.info.range = ">= 0, below size_kib";
  ofmap = with_check<AcceleratorConfig>(ofmap, [](YamlMap& map, const AcceleratorConfig& config) {
    if (config.glb.unified && config.glb.ofmap_size_kib > 0) {
      map.at("ofmap_size_kib")
          .fail(
              "a unified buffer is split per layer by the planner: remove glb.ofmap_size_kib "
              "or set glb.unified: false");
    }
    if (config.glb.ofmap_size_kib >= config.glb.size_kib)
      map.at("ofmap_size_kib").fail("must be smaller than glb.size_kib");
  });
  section.keys = {
      unified,
      ofmap,
      operand_key("glb.operand_fetch", &GlbConfig::operand_fetch,
                  ChoiceNames<OperandFetch>{{"tensors", OperandFetch::kTensors}, {"im2col", OperandFetch::kIm2col}},
                  "fetch the tensor rows a fold touches, or SCALE-Sim's im2col operand block of the fold"),
      operand_key("glb.first_fill", &GlbConfig::first_fill,
                  ChoiceNames<FirstFill>{{"timed", FirstFill::kTimed}, {"free", FirstFill::kFree}},
                  "`free` counts each layer's first half-buffer of each read stream as arrived before the layer "
                  "(SCALE-Sim); not with `dram.impl: banked`"),
      operand_key(
          "glb.prefetch", &GlbConfig::prefetch,
          ChoiceNames<Prefetch>{{"double_buffered", Prefetch::kDoubleBuffered}, {"run_ahead", Prefetch::kRunAhead}},
          "fetch a fold while the previous one computes, or fold after fold without waiting for buffer "
          "space (SCALE-Sim's prefetch timing; at most 4096 folds ahead)"),
      operand_key(
          "glb.fold_reuse", &GlbConfig::fold_reuse,
          ChoiceNames<FoldReuse>{{"capacity", FoldReuse::kCapacity}, {"previous_fold", FoldReuse::kPreviousFold}},
          "keep the operand blocks and partial sums the buffers can hold between folds, evicting the one "
          "needed furthest ahead, or only the previous fold's blocks (SCALE-Sim)"),
  };
  return section;
}

}  // namespace
}  // namespace ergon

ERGON_REGISTER(ergon::AcceleratorConfigSection, "systolic pe_array", ergon::array_keys(),
               ergon::config_order::kPeArrayPlugin)
ERGON_REGISTER(ergon::AcceleratorConfigSection, "systolic glb", ergon::buffer_keys(), ergon::config_order::kGlbPlugin)
