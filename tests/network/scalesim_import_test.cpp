// SCALE-Sim topologies import with SCALE-Sim's semantics: every layer's output size and MAC count equal
// SCALE-Sim's formulas (ceil((H - R + s) / s); DP layers one per channel), computed here independently.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "common/input_error.hpp"
#include "network/importers/scalesim_topology.hpp"
#include "network/workload.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

std::string write_temp(const std::string& name, const std::string& content) {
  const auto path = test::unique_temp_path(name);
  std::ofstream(path) << content;
  return path.string();
}

Workload import(const std::string& csv, ScaleSimTopologyKind kind = ScaleSimTopologyKind::kConv) {
  const auto layers = read_scalesim_topology(csv, kind).layers;
  const std::string yaml = write_temp(std::filesystem::path(csv).stem().string() + "_imported.yaml",
                                      scalesim_workload_yaml(layers, "imported", csv));
  return load_workload(yaml);
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

TEST(ScaleSimImport, ShippedTopologiesKeepScaleSimShapesAndMacs) {
  for (const auto* name :
       {"alexnet", "Resnet18", "Resnet50", "Googlenet", "mobilenet", "yolo_tiny", "FasterRCNN", "three_layer"}) {
    const std::string csv = test::data_dir() + "/scalesim/" + name + ".csv";
    const auto rows = read_scalesim_topology(csv, ScaleSimTopologyKind::kConv).layers;
    const Workload workload = import(csv);
    std::uint64_t expected_macs = 0;
    for (const auto& row : rows) {
      const std::int64_t e = ceil_div(row.ifmap_h - row.filter_h + row.stride, row.stride);
      const std::int64_t f = ceil_div(row.ifmap_w - row.filter_w + row.stride, row.stride);
      expected_macs += static_cast<std::uint64_t>(e * f * row.filter_h * row.filter_w * row.channels * row.filters);
      const Layer* layer = workload.find_layer(row.name);
      ASSERT_NE(layer, nullptr) << name << " " << row.name;
      EXPECT_EQ(layer->output_shape.height, e) << name << " " << row.name;
      EXPECT_EQ(layer->output_shape.width, f) << name << " " << row.name;
    }
    EXPECT_EQ(workload.total_macs(), expected_macs) << name;
  }
}

TEST(ScaleSimImport, QuirksTrailingCommasDepthwiseAndGemm) {
  const std::string conv = write_temp("scalesim_quirks.csv",
                                      "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, "
                                      "Num Filter, Strides,\n\n"
                                      "A, 9, 9, 3, 3, 4, 8, 2,\n"
                                      "B_DP, 8, 8, 3, 3, 6, 1, 1\n");
  const Workload workload = import(conv);
  EXPECT_EQ(workload.find_layer("A")->output_shape, (TensorShape{8, 4, 4}));  // ceil((9-3+2)/2) = 4
  const Layer* depthwise = workload.find_layer("B_DP");
  EXPECT_EQ(depthwise->conv().groups, 6);
  EXPECT_EQ(depthwise->macs, 6u * 6 * 3 * 3 * 6);  // SCALE-Sim: 6 one-channel layers
  const std::string gemm = write_temp("scalesim_gemm.csv", "Layer, M, N, K,\nTest 1, 256, 128, 64,\n");
  const Workload gemm_workload = import(gemm, ScaleSimTopologyKind::kGemm);
  EXPECT_EQ(gemm_workload.total_macs(), 256u * 128 * 64);
}

TEST(ScaleSimImport, BadRowsAreLocated) {
  const std::string header =
      "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides,\n";
  const auto expect_error = [](const std::string& path, const std::string& fragment) {
    try {
      read_scalesim_topology(path, ScaleSimTopologyKind::kConv).layers;
      FAIL() << "expected an error";
    } catch (const InputError& error) {
      EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) << error.what();
    }
  };
  const std::string bad_number = write_temp("scalesim_bad_number.csv", header + "L1, 16, x16, 3, 3, 8, 16, 1,\n");
  expect_error(bad_number, bad_number + ":2:9: IFMAP Width: expected a whole number, got 'x16'");
  const std::string too_big = write_temp("scalesim_too_big.csv", header + "L1, 4, 4, 5, 5, 8, 16, 1,\n");
  expect_error(too_big, "Filter Height: the 5x5 filter is larger than the 4x4");
  const std::string zero_stride = write_temp("scalesim_zero_stride.csv", header + "L1, 8, 8, 3, 3, 8, 16, 0,\n");
  expect_error(zero_stride, ":2:24: Strides: must be between 1 and");
  const std::string short_row = write_temp("scalesim_short.csv", header + "L1, 8, 8, 3,\n");
  expect_error(short_row, ":2:1: expected 8 fields");
  const std::string bad_stride_width =
      write_temp("scalesim_bad_stride_w.csv", header + "L1, 8, 8, 3, 3, 8, 16, 1, 0,\n");
  expect_error(bad_stride_width, "Stride width: must be between 1 and");
  const std::string empty = write_temp("scalesim_empty.csv", header);
  expect_error(empty, "no layers");
}

// What SCALE-Sim's own files contain and SCALE-Sim accepts: a GEMM header without a flag, comment columns,
// repeated names, v2's stride-width column and v3's N:M sparsity column, a byte-order mark.
TEST(ScaleSimImport, ReadsWhatScaleSimAccepts) {
  const std::string gemm = write_temp("ergon_auto_gemm.csv", "Layer, M, N, K,\nfc1, 4, 16, 32,\n");
  const ScaleSimTopology detected = read_scalesim_topology(gemm, ScaleSimTopologyKind::kAuto);
  EXPECT_EQ(detected.kind, ScaleSimTopologyKind::kGemm);
  EXPECT_EQ(import(gemm, ScaleSimTopologyKind::kAuto).total_macs(), 4u * 16 * 32);

  const std::string rows = write_temp(
      "ergon_scalesim_quirks.csv",
      "\xEF\xBB\xBFLayer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, "
      "Strides,\n"
      "Conv dw,8,8,3,3,4,4,1,#dw\n"
      "Conv dw,8,8,3,3,4,4,1,#dw\n"
      "wide,8,9,1,1,4,4,1,2,\n"
      "sparse,8,8,1,1,4,4,1,2:4,\n");
  const ScaleSimTopology topology = read_scalesim_topology(rows, ScaleSimTopologyKind::kAuto);
  ASSERT_EQ(topology.layers.size(), 4u);
  EXPECT_EQ(topology.layers[1].name, "Conv dw_2");
  EXPECT_EQ(topology.layers[2].stride_w, 2);
  ASSERT_EQ(topology.warnings.size(), 2u);
  EXPECT_NE(topology.warnings[0].find(":3:1: the layer name 'Conv dw' is already used on line 2; renamed 'Conv dw_2'"),
            std::string::npos)
      << topology.warnings[0];
  EXPECT_NE(topology.warnings[1].find(":5:"), std::string::npos);
  EXPECT_NE(topology.warnings[1].find("N:M structured sparsity 2:4 (SCALE-Sim v3) is not modelled"), std::string::npos)
      << topology.warnings[1];
  const Workload workload = import(rows, ScaleSimTopologyKind::kAuto);
  const Layer* wide = workload.find_layer("wide");
  ASSERT_NE(wide, nullptr);
  EXPECT_EQ(wide->output_shape, (TensorShape{4, 8, 5}));  // ceil((9 - 1 + 2) / 2) = 5 columns
}

}  // namespace
}  // namespace ergon
