// The systolic array against SCALE-Sim v2 on stall-free runs: per-layer cycles, utilisation and buffer
// access counts equal what SCALE-Sim's code computes (docs/scalesim-reference.md), reimplemented here from
// its formulas, within 0.5%. Known systematic differences, documented: SCALE-Sim reports one cycle less
// per layer (it counts the last output row's issue cycle, not its end) and, for output stationary, adds
// folds x (rows + cols) phantom OFMAP writes; Ergon counts the writes that happen.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

#include "network/importers/scalesim_topology.hpp"
#include "sim/data_paths.hpp"
#include "sim/simulation.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

struct ScaleSimExpectation {
  double cycles, utilization, ifmap_reads, filter_reads, ofmap_writes;
};

// SCALE-Sim v2 for one conv layer (batch 1, stall-free), from its compute code.
ScaleSimExpectation scalesim(const ScaleSimLayer& l, const std::string& dataflow, std::int64_t rows,
                             std::int64_t cols) {
  const std::int64_t e = ceil_div(l.ifmap_h - l.filter_h + l.stride, l.stride);
  const std::int64_t f = ceil_div(l.ifmap_w - l.filter_w + l.stride, l.stride);
  const std::int64_t npx = e * f, k = l.filter_h * l.filter_w * l.channels, m = l.filters;
  std::int64_t sr = npx, sc = m, t = k;
  if (dataflow == "ws") sr = k, sc = m, t = npx;
  if (dataflow == "is") sr = k, sc = npx, t = m;
  const std::int64_t row_folds = ceil_div(sr, rows), col_folds = ceil_div(sc, cols), folds = row_folds * col_folds;
  const std::int64_t per_fold = dataflow == "os" ? t + rows + cols - 2 : 2 * rows + cols + t - 2;
  const double cycles = static_cast<double>(folds * per_fold - 1);
  ScaleSimExpectation x{cycles, static_cast<double>(npx * k * m) / (cycles * static_cast<double>(rows * cols)), 0, 0,
                        0};
  if (dataflow == "os") {
    x.ifmap_reads = static_cast<double>(col_folds * sr * t);
    x.filter_reads = static_cast<double>(row_folds * t * sc);
    x.ofmap_writes = static_cast<double>(sr * sc);  // SCALE-Sim adds folds * (rows + cols): see above
  } else if (dataflow == "ws") {
    x.ifmap_reads = static_cast<double>(col_folds * npx * k);
    x.filter_reads = static_cast<double>(k * m);
    x.ofmap_writes = static_cast<double>(row_folds * npx * m);
  } else {
    x.ifmap_reads = static_cast<double>(k * npx);
    x.filter_reads = static_cast<double>(col_folds * m * k);
    x.ofmap_writes = static_cast<double>(row_folds * m * npx);
  }
  return x;
}

void expect_close(double value, double expected, const std::string& what) {
  EXPECT_LE(std::fabs(value - expected), 0.005 * expected) << what << ": " << value << " vs SCALE-Sim " << expected;
}

void compare_with_scalesim(const std::string& topology, const std::string& dataflow) {
  const std::string csv = test::data_dir() + "/scalesim/" + topology + ".csv";
  const auto rows = read_scalesim_topology(csv, ScaleSimTopologyKind::kConv).layers;
  const auto yaml = test::unique_temp_path("ergon_systolic_" + topology + ".yaml");
  std::ofstream(yaml) << scalesim_workload_yaml(rows, topology, csv);
  const Workload workload = load_workload(yaml.string());
  // scale.cfg: 32x32, 64 KiB per buffer, 1-byte words; CALC bandwidth = no DRAM stalls.
  const AcceleratorConfig config = load_accelerator_config(
      test::source_dir() + "/configs/edge_tpu.yaml",
      {"pe_array.rows=32", "pe_array.cols=32", "pe_array.dataflow=" + dataflow, "glb.size_kib=128",
       "glb.ofmap_size_kib=64", "glb.filter_size_kib=64", "dram.bandwidth_gbps=1000000", "dram.latency_ns=0"});
  const EnergyTable table = load_energy_table(test::source_dir() + "/power/tables/cnnergy_65nm.yaml");
  const SimulationResult result = Simulation(config, table, workload, {}).run();
  for (const auto& row : rows) {
    const ScaleSimExpectation x = scalesim(row, dataflow, 32, 32);
    const LayerResult* layer = nullptr;
    for (const auto& entry : result.layers) layer = entry.name == row.name ? &entry : layer;
    ASSERT_NE(layer, nullptr) << row.name;
    const std::string where = topology + " " + dataflow + " " + row.name;
    EXPECT_LE(layer->stall_cycles, 2u) << where;
    expect_close(static_cast<double>(layer->cycles), x.cycles, where + " cycles");
    expect_close(layer->utilization, x.utilization, where + " utilization");
    expect_close(static_cast<double>(layer->count("noc.ifmap_transfer")), x.ifmap_reads, where + " ifmap reads");
    expect_close(static_cast<double>(layer->count("noc.filter_transfer")), x.filter_reads, where + " filter reads");
    expect_close(static_cast<double>(layer->count("noc.psum_transfer")), x.ofmap_writes, where + " ofmap writes");
  }
}

TEST(Systolic, AgreesWithScaleSimOutputStationary) {
  compare_with_scalesim("Resnet18", "os");
}
TEST(Systolic, AgreesWithScaleSimWeightStationary) {
  compare_with_scalesim("Resnet18", "ws");
}
TEST(Systolic, AgreesWithScaleSimInputStationary) {
  compare_with_scalesim("alexnet", "is");
}

TEST(Systolic, StallsFollowDramBandwidth) {
  const Workload workload = load_workload(test::source_dir() + "/workloads/resnet18.yaml");
  const EnergyTable table = load_energy_table(test::source_dir() + "/power/tables/cnnergy_65nm.yaml");
  const auto run = [&](const std::string& preset) {
    return Simulation(load_accelerator_config(test::source_dir() + "/configs/edge_tpu.yaml", {"dram.preset=" + preset}),
                      table, workload, {})
        .run();
  };
  const SimulationResult lpddr4 = run("lpddr4"), hbm2 = run("hbm2");
  EXPECT_GT(lpddr4.total.stall_cycles, hbm2.total.stall_cycles);
  EXPECT_GT(lpddr4.total.cycles, hbm2.total.cycles);
  EXPECT_EQ(lpddr4.total.count("dram.read"), hbm2.total.count("dram.read"));
  EXPECT_EQ(lpddr4.total.macs, workload.total_macs());
}

TEST(Systolic, CycleFidelityComputesTheNetworkCorrectly) {
  const Workload workload = load_workload(test::source_dir() + "/workloads/resnet8.yaml");
  const EnergyTable table = load_energy_table(test::source_dir() + "/power/tables/cnnergy_65nm.yaml");
  const AcceleratorConfig config =
      load_accelerator_config(test::source_dir() + "/configs/edge_tpu.yaml", {"pe_array.rows=16", "pe_array.cols=16"});
  SimulationOptions options;
  options.fidelity = Fidelity::kCycleAccurate;
  const SimulationResult cycle = Simulation(config, table, workload, options).run();
  const SimulationResult tlm = Simulation(config, table, workload, {}).run();
  std::size_t checked = 0;
  for (std::size_t i = 0; i < cycle.layers.size(); ++i) {
    if (cycle.layers[i].op != "conv" && cycle.layers[i].op != "fc") continue;
    ++checked;
    EXPECT_TRUE(cycle.layers[i].output_checked) << cycle.layers[i].name;
    EXPECT_EQ(cycle.layers[i].output_mismatches, 0u) << cycle.layers[i].name;
    EXPECT_EQ(cycle.layers[i].cycles, tlm.layers[i].cycles) << cycle.layers[i].name;
  }
  EXPECT_GE(checked, 9u);
}

// With `pe_array.dataflow: auto` each layer takes its own dataflow: the network costs no more energy than
// on the best single dataflow (within the cycle estimate's slack on clock energy).
TEST(Systolic, AutoDataflowIsNoWorseThanAnyFixedOne) {
  const Workload workload = load_workload(test::source_dir() + "/workloads/mobilenet_v1.yaml");
  const auto run = [&](const std::string& dataflow) {
    const AcceleratorConfig config =
        load_accelerator_config(test::source_dir() + "/configs/edge_tpu.yaml", {"pe_array.dataflow=" + dataflow});
    return Simulation(config, load_energy_table(energy_table_path(config)), workload, {}).run();
  };
  const SimulationResult automatic = run("auto");
  std::set<std::string> chosen;
  for (const LayerResult& layer : automatic.layers) {
    if (layer.mapping && layer.op == "conv") chosen.insert(layer.mapping->parameters.at("dataflow"));
  }
  EXPECT_GE(chosen.size(), 2u);  // depthwise and pointwise layers prefer different dataflows
  for (const char* fixed : {"os", "ws", "is"}) {
    const SimulationResult single = run(fixed);
    EXPECT_LE(automatic.total.energy.total_pj(), 1.01 * single.total.energy.total_pj()) << fixed;
  }
}

// The fold order decides which operand stays on chip: where only the filters fit their buffer, walking the
// filter folds inside each pixel fold (rows outer) fetches the ifmap once; the planner finds that order.
TEST(Systolic, FoldOrderKeepsTheOperandThatFits) {
  const auto path = test::unique_temp_path("ergon_fold_order.yaml");
  std::ofstream(path) << "name: folds\nsource: test\nlayers:\n"
                         "  - {name: image, op: input, shape: [64, 56, 56]}\n"
                         "  - {name: conv, op: conv, inputs: [image], filters: 128, kernel: 1}\n";
  const Workload workload = load_workload(path.string());
  // OS on 16x16: pixels are the rows, filters the columns; 64 KiB of filter buffer holds all 8 Ki filter
  // words, 8 KiB of ifmap buffer not the 200 Ki ifmap words.
  const AcceleratorConfig config = load_accelerator_config(
      test::source_dir() + "/configs/edge_tpu.yaml",
      {"pe_array.rows=16", "pe_array.cols=16", "glb.size_kib=16", "glb.ofmap_size_kib=8", "glb.filter_size_kib=64"});
  const EnergyTable table = load_energy_table(energy_table_path(config));
  const auto run = [&](const std::string& pins) {
    SimulationOptions options;
    if (!pins.empty()) {
      const auto pins_path = test::unique_temp_path("ergon_fold_order_pins.yaml");
      std::ofstream(pins_path) << "layers:\n  conv: {fold_order: " << pins << "}\n";
      options.mapping = load_mapping_file(pins_path.string());
    }
    return Simulation(config, table, workload, options).run().layers[1];
  };
  const LayerResult chosen = run(""), columns = run("columns_outer"), rows = run("rows_outer");
  EXPECT_EQ(chosen.mapping->parameters.at("fold_order"), "rows_outer");
  EXPECT_LT(rows.count("dram.read"), columns.count("dram.read"));
  EXPECT_EQ(chosen.count("dram.read"), rows.count("dram.read"));
  EXPECT_EQ(rows.macs, columns.macs);
}

// A report's dataflow is the spelling a mapping file and `pe_array.dataflow` take (os, ws, is), so a layer's
// reported mapping pins back unchanged; `systolic_ws`, as reports printed it before, pins the same.
TEST(Systolic, TheReportedDataflowPinsBackInAMappingFile) {
  const Workload workload = load_workload(test::source_dir() + "/workloads/resnet8.yaml");
  const AcceleratorConfig config =
      load_accelerator_config(test::source_dir() + "/configs/edge_tpu.yaml", {"pe_array.dataflow=auto"});
  const EnergyTable table = load_energy_table(energy_table_path(config));
  const auto run_pinned = [&](const std::string& layer, const std::string& dataflow) {
    const auto pins_path = test::unique_temp_path("ergon_dataflow_pins.yaml");
    std::ofstream(pins_path) << "layers:\n  " << layer << ": {dataflow: " << dataflow << "}\n";
    SimulationOptions options;
    options.mapping = load_mapping_file(pins_path.string());
    return Simulation(config, table, workload, options).run();
  };
  const SimulationResult chosen = Simulation(config, table, workload, {}).run();
  const auto conv = std::find_if(chosen.layers.begin(), chosen.layers.end(),
                                 [](const LayerResult& layer) { return layer.op == "conv" && layer.mapping; });
  ASSERT_NE(conv, chosen.layers.end());
  const auto reported = conv->mapping->parameters.at("dataflow").get<std::string>();
  EXPECT_TRUE(reported == "os" || reported == "ws" || reported == "is") << reported;
  const std::string other = reported == "ws" ? "os" : "ws";
  for (const std::string& pinned : {reported, other, "systolic_" + other}) {
    const SimulationResult result = run_pinned(conv->name, pinned);
    const auto layer = std::find_if(result.layers.begin(), result.layers.end(),
                                    [&](const LayerResult& l) { return l.name == conv->name; });
    EXPECT_EQ(layer->mapping->parameters.at("dataflow"), pinned == reported ? reported : other) << pinned;
  }
}

}  // namespace
}  // namespace ergon
