// Capacity-driven fold reuse (glb.fold_reuse: capacity, docs/dataflow.md): against Timeloop's simple weight-
// and output-stationary exercise designs, the compulsory traffic when the buffers hold everything, partial
// sums spilled at the accumulator width when the stream is kept whole, and the stream tile that avoids it.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "dataflows/loop_nest.hpp"
#include "sim/run_pipeline.hpp"
#include "sim/simulation.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

LayerResult run_layer(const std::string& workload_path, const std::string& layer,
                      const std::vector<std::string>& overrides, const std::string& pins = "") {
  const Chip chip(load_accelerator_config(test::source_dir() + "/configs/edge_tpu.yaml", overrides));
  SimulationOptions options;
  if (!pins.empty()) {
    const auto pins_path = test::unique_temp_path("ergon_reuse_pins.yaml");
    std::ofstream(pins_path) << "layers:\n  " << layer << ": {" << pins << "}\n";
    options.mapping = load_mapping_file(pins_path.string());
  }
  const SimulationResult result = run_pipeline(chip, load_workload(workload_path), options);
  for (const LayerResult& l : result.layers) {
    if (l.name == layer) return l;
  }
  throw std::logic_error("no layer " + layer);
}

std::uint64_t tensor_count(const LayerResult& layer, Action action, Tensor tensor) {
  return layer.count(tensor_counter_spec(action, tensor).name);
}

// Timeloop's exercise architecture as far as a systolic array can take it: 16x16 PEs, 16-bit words, 128 KiB
// of buffer (here 64 KiB ifmaps, 32 KiB outputs, 32 KiB filters), a capacity-managed scratchpad.
std::vector<std::string> timeloop_like(const std::string& dataflow, const std::string& reuse) {
  return {"pe_array.rows=16", "pe_array.cols=16",      "pe_array.word_bits=16",  "pe_array.dataflow=" + dataflow,
          "glb.size_kib=96",  "glb.ofmap_size_kib=32", "glb.filter_size_kib=32", "glb.fold_reuse=" + reuse};
}

// Timeloop's reference outputs for the default problem (MobileNet's first layer), DRAM words of 16 bits
// (docs/sources/matrix-engines.md §3): 554,147 (weight stationary) and 572,528 (output stationary).
TEST(SystolicReuse, TimeloopExercisesWithinTwiceTheirDramTraffic) {
  const std::string problem = test::data_dir() + "/timeloop/default_problem.yaml";
  // Compulsory: the stored input (3 x 224 x 224), the weights and the outputs, once each.
  const std::uint64_t compulsory_words = 3 * 224 * 224 + 864 + 32 * 112 * 112;
  for (const auto& [dataflow, timeloop_words] : {std::pair<std::string, double>{"ws", 554147.0}, {"os", 572528.0}}) {
    const LayerResult capacity = run_layer(problem, "conv1", timeloop_like(dataflow, "capacity"));
    const LayerResult previous = run_layer(problem, "conv1", timeloop_like(dataflow, "previous_fold"));
    const double words = static_cast<double>(capacity.dram_bytes()) / 2;
    EXPECT_LE(words, 2 * timeloop_words) << dataflow;
    EXPECT_GE(words, static_cast<double>(compulsory_words)) << dataflow;
    EXPECT_LE(capacity.dram_bytes(), previous.dram_bytes()) << dataflow;
  }
  // SCALE-Sim's rule re-reads the input rows of every pixel fold: 3.5x Timeloop's traffic.
  const LayerResult previous_os = run_layer(problem, "conv1", timeloop_like("os", "previous_fold"));
  EXPECT_GT(static_cast<double>(previous_os.dram_bytes()) / 2, 3 * 572528.0);
}

// Buffers that hold every tensor read each stored value they need once, whatever the dataflow and fold order.
TEST(SystolicReuse, RoomyBuffersReadTheCompulsoryTraffic) {
  const Workload workload = load_workload(test::source_dir() + "/workloads/resnet8.yaml");
  for (const char* dataflow : {"os", "ws", "is"}) {
    const Chip chip(
        load_accelerator_config(test::source_dir() + "/configs/edge_tpu.yaml",
                                {"glb.fold_reuse=capacity", "glb.keep_activations=never",
                                 std::string("pe_array.dataflow=") + dataflow, "pe_array.rows=16", "pe_array.cols=16",
                                 "glb.size_kib=8192", "glb.ofmap_size_kib=4096", "glb.filter_size_kib=4096"}));
    const SimulationResult result = run_pipeline(chip, workload, SimulationOptions{});
    for (const LayerResult& layer : result.layers) {
      const Layer* l = workload.find_layer(layer.name);
      if (!layer.executed || (l->op != OpKind::kConv && l->op != OpKind::kFullyConnected)) continue;
      const auto stored_input = static_cast<std::uint64_t>(l->input_shapes.at(0).elements());
      const LoopNest nest = loop_nest_of(*l, 1);
      // A strided layer never reads the input rows between its windows.
      const std::uint64_t inputs = tensor_count(layer, Action::kDramRead, Tensor::kInputs);
      if (nest.stride_h == 1) {
        EXPECT_EQ(inputs, stored_input) << dataflow << " " << layer.name;
      } else {
        EXPECT_LE(inputs, stored_input) << dataflow << " " << layer.name;
        EXPECT_GE(inputs, stored_input / nest.stride_h) << dataflow << " " << layer.name;
      }
      const auto weights =
          static_cast<std::uint64_t>(nest.groups * nest.filters * nest.filter_h * nest.filter_w * nest.channels);
      EXPECT_EQ(tensor_count(layer, Action::kDramRead, Tensor::kWeights), weights) << dataflow << " " << layer.name;
      EXPECT_EQ(tensor_count(layer, Action::kDramRead, Tensor::kOutputs), 0u) << dataflow << " " << layer.name;
    }
  }
}

// Weight stationary with the whole stream (SCALE-Sim's schedule) cannot hold the sums of 12,544 pixels in a
// 32 KiB output buffer: the ones evicted go out and come back at the accumulator width. The planner's
// stream tile keeps them on chip, for less energy.
TEST(SystolicReuse, OverflowingPartialSumsSpillAtTheAccumulatorWidth) {
  const std::string problem = test::data_dir() + "/timeloop/default_problem.yaml";
  std::vector<std::string> overrides = timeloop_like("ws", "capacity");
  const auto spills = [&](const std::string& accumulator_bits) {
    std::vector<std::string> with_width = overrides;
    with_width.push_back("pe_array.accumulator_bits=" + accumulator_bits);
    const LayerResult layer = run_layer(problem, "conv1", with_width, "stream_tile: 12544, fold_order: columns_outer");
    return std::pair{tensor_count(layer, Action::kDramRead, Tensor::kOutputs),
                     tensor_count(layer, Action::kDramWrite, Tensor::kOutputs) - 32u * 112 * 112 * 2};
  };
  const auto [read16, written16] = spills("16");
  const auto [read32, written32] = spills("32");
  EXPECT_GT(read16, 0u);
  EXPECT_EQ(read16, written16) << "every spilled sum is read back once";
  EXPECT_EQ(read32, written32);
  // Twice the bytes per sum, and room for half as many: more than twice the bytes.
  EXPECT_GT(read32, 2 * read16);
  const LayerResult chosen = run_layer(problem, "conv1", overrides);
  EXPECT_LT(chosen.mapping->parameters.at("stream_tile").get<std::int64_t>(), 12544);
  EXPECT_EQ(tensor_count(chosen, Action::kDramRead, Tensor::kOutputs), 0u);
  const LayerResult whole = run_layer(problem, "conv1", overrides, "stream_tile: 12544");
  EXPECT_LT(chosen.energy.total_pj(), whole.energy.total_pj());
}

// pe_array.weight_bits: 4-bit weights next to 8-bit activations move half the weight bytes and pack twice
// as many weights into the filter buffer. A 64 KiB filter buffer holds 65,536 8-bit weights, not the layer's
// 73,728, so the 8-bit schedule reads its input several times; at 4 bits they fit and it reads it once.
TEST(SystolicReuse, NarrowWeightsMoveFewerBytesAndFitTheFilterBuffer) {
  const auto path = test::unique_temp_path("ergon_weight_bits.yaml");
  std::ofstream(path) << "name: weight_bits\nsource: test\nlayers:\n"
                         "  - {name: image, op: input, shape: [64, 28, 28]}\n"
                         "  - {name: conv, op: conv, inputs: [image], filters: 128, kernel: 3, padding: 1}\n";
  const auto run = [&](const std::string& weight_bits) {
    return run_layer(path.string(), "conv",
                     {"pe_array.rows=16", "pe_array.cols=16", "glb.fold_reuse=capacity", "glb.size_kib=64",
                      "glb.ofmap_size_kib=32", "glb.filter_size_kib=64", "pe_array.weight_bits=" + weight_bits});
  };
  const LayerResult int8 = run("8"), int4 = run("4");
  constexpr std::uint64_t kWeights = 64 * 128 * 9, kInputs = 64 * 28 * 28;
  EXPECT_EQ(tensor_count(int8, Action::kDramRead, Tensor::kWeights), kWeights);
  EXPECT_EQ(tensor_count(int4, Action::kDramRead, Tensor::kWeights), kWeights / 2);
  EXPECT_GT(tensor_count(int8, Action::kDramRead, Tensor::kInputs), kInputs);
  EXPECT_EQ(tensor_count(int4, Action::kDramRead, Tensor::kInputs), kInputs);
  EXPECT_EQ(int4.macs, int8.macs);
  EXPECT_EQ(int8.count("dram.read") - int4.count("dram.read"),
            kWeights / 2 + tensor_count(int8, Action::kDramRead, Tensor::kInputs) - kInputs);
}

// A quantised model's layer gives its own weight width (MatMulNBits' 4 bits): the engine packs it as it does
// pe_array.weight_bits; a layer wider than the engine runs at the engine's width.
TEST(SystolicReuse, ALayersOwnNarrowWeightsArePackedLikeTheEnginesOwn) {
  const auto workload_with = [](const std::string& widths) {
    const auto path = test::unique_temp_path("ergon_layer_weight_bits.yaml");
    std::ofstream(path) << "name: layer_weight_bits\nsource: test\nlayers:\n"
                           "  - {name: image, op: input, shape: [64, 28, 28]}\n"
                           "  - {name: conv, op: conv, inputs: [image], filters: 128, kernel: 3, padding: 1"
                        << widths << "}\n";
    return path.string();
  };
  const std::vector<std::string> chip = {"pe_array.rows=16", "pe_array.cols=16",      "glb.fold_reuse=capacity",
                                         "glb.size_kib=64",  "glb.ofmap_size_kib=32", "glb.filter_size_kib=64"};
  auto engine_int4 = chip;
  engine_int4.push_back("pe_array.weight_bits=4");
  const LayerResult layer_int4 = run_layer(workload_with(", weight_bits: 4, activation_bits: 8"), "conv", chip);
  const LayerResult config_int4 = run_layer(workload_with(""), "conv", engine_int4);
  const LayerResult layer_int16 = run_layer(workload_with(", weight_bits: 16"), "conv", chip);
  const LayerResult plain = run_layer(workload_with(""), "conv", chip);
  constexpr std::uint64_t kWeights = 64 * 128 * 9;
  EXPECT_EQ(tensor_count(layer_int4, Action::kDramRead, Tensor::kWeights), kWeights / 2);
  EXPECT_EQ(layer_int4.count("dram.read"), config_int4.count("dram.read"));
  EXPECT_EQ(layer_int4.cycles, config_int4.cycles);
  EXPECT_EQ(layer_int16.count("dram.read"), plain.count("dram.read"));  // the 8-bit engine quantises it
}

}  // namespace
}  // namespace ergon

namespace ergon {
namespace {

// glb.unified: one capacity the planner splits per layer, so a buffer sweep runs down to a few wavefronts;
// with activations kept on chip, MobileNetV2's DRAM traffic falls as the buffer grows until its working
// set fits. Every layer's split fills the buffer exactly.
TEST(SystolicReuse, AUnifiedBufferSweepsItsWholeRange) {
  const Workload workload = load_workload(test::source_dir() + "/workloads/mobilenet_v2.yaml");
  std::vector<std::uint64_t> dram;
  for (const char* kib : {"64", "256", "1024", "8192"}) {
    const Chip chip(load_accelerator_config(
        test::source_dir() + "/configs/edge_tpu.yaml",
        {"glb.unified=true", "glb.filter_size_kib=0", "glb.ofmap_size_kib=0", "glb.fold_reuse=capacity",
         "glb.keep_activations=when_fits", std::string("glb.size_kib=") + kib}));
    const SimulationResult result = run_pipeline(chip, workload, SimulationOptions{});
    dram.push_back(result.total.dram_bytes());
    for (const LayerResult& layer : result.layers) {
      if (!layer.mapping || !layer.mapping->parameters.contains("filter_buffer_kib")) continue;
      const auto& p = layer.mapping->parameters;
      const double split_kib = p.at("ifmap_buffer_kib").get<double>() + p.at("filter_buffer_kib").get<double>() +
                               p.at("ofmap_buffer_kib").get<double>();
      EXPECT_NEAR(split_kib, std::stod(kib), 1e-9) << kib << " KiB " << layer.name;
    }
  }
  EXPECT_GT(dram[0], dram[1]);
  EXPECT_GT(dram[1], dram[2]);
  EXPECT_GE(dram[2], dram[3]);
  EXPECT_GE(static_cast<double>(dram[1]), 2.0 * static_cast<double>(dram[3])) << "256 KiB against 8 MiB";
}

}  // namespace
}  // namespace ergon

namespace ergon {
namespace {

// The shipped Coral Edge TPU (docs/architectures.md): MobileNetV2's off-chip traffic falls more than twice
// between a 256 KiB and an 8 MiB buffer, and at 8 MiB only the input image and the output cross the link.
TEST(SystolicReuse, CoralEdgeTpuTrafficFallsWithItsBuffer) {
  const Workload workload = load_workload(test::source_dir() + "/workloads/mobilenet_v2.yaml");
  const auto dram = [&](const char* kib) {
    const Chip chip(load_accelerator_config(test::source_dir() + "/configs/coral_edge_tpu.yaml",
                                            {std::string("glb.size_kib=") + kib}));
    return run_pipeline(chip, workload, SimulationOptions{}).total.dram_bytes();
  };
  const std::uint64_t small = dram("256"), large = dram("8192");
  EXPECT_GE(small, 2 * large);
  const Layer& input = workload.layers().front();
  const std::uint64_t io =
      static_cast<std::uint64_t>(input.output_shape.elements() + workload.layers().back().output_shape.elements());
  EXPECT_EQ(large, io) << "8-bit words: the input image and the logits";
}

}  // namespace
}  // namespace ergon
