// Both fidelities on a corpus of random small layers: the cycle-accurate array counts what it moves,
// the transaction-level model computes it from formulas; access counts must be identical, cycles close
// (see kLayerCycleTolerance), and every cycle-accurate output must equal the reference computation.
// (Dense data: with sparse data the transaction level uses the expected share of zeros, checked separately.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

#include "dataflows/systolic/systolic_dataflow.hpp"
#include "sim/simulation.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

std::int64_t uniform(std::mt19937_64& random, std::int64_t low, std::int64_t high) {
  return std::uniform_int_distribution<std::int64_t>(low, high)(random);
}

// One random layer with its own input node, in the workload YAML format.
std::string random_layer(std::mt19937_64& random, int index) {
  const std::int64_t channels = uniform(random, 1, 12), height = uniform(random, 3, 12), width = uniform(random, 3, 12);
  std::ostringstream text;
  text << "  - {name: in" << index << ", op: input, shape: [" << channels << ", " << height << ", " << width << "]}\n";
  text << "  - {name: layer" << index << ", inputs: [in" << index << "], batch: " << uniform(random, 1, 3) << ", ";
  const std::int64_t kind = uniform(random, 0, 9);
  const std::int64_t kernel_h = uniform(random, 1, std::min<std::int64_t>(height, 5));
  const std::int64_t kernel_w = uniform(random, 1, std::min<std::int64_t>(width, 5));
  if (kind <= 5) {  // convolution: grouped, depthwise, strided, padded, dilated
    const std::int64_t groups = channels % 2 == 0 && uniform(random, 0, 2) == 0 ? 2 : 1;
    const bool depthwise = groups == 1 && uniform(random, 0, 4) == 0;
    const std::int64_t dilation =
        kernel_h <= 3 && kernel_w <= 3 && height >= 7 && width >= 7 ? uniform(random, 1, 2) : 1;
    text << "op: conv, kernel: [" << kernel_h << ", " << kernel_w << "], stride: " << uniform(random, 1, 3)
         << ", padding: " << uniform(random, 0, 2) << ", dilation: " << dilation;
    if (depthwise) {
      text << ", depthwise: true";
    } else {
      text << ", groups: " << groups << ", filters: " << groups * uniform(random, 1, 10);
    }
  } else if (kind <= 7) {
    text << "op: fc, outputs: " << uniform(random, 1, 40);
  } else if (kind == 8) {
    text << "op: " << (uniform(random, 0, 1) == 0 ? "maxpool" : "avgpool")
         << ", kernel: " << std::min(kernel_h, kernel_w) << ", stride: " << uniform(random, 1, 2);
  } else {
    text << "op: global_avgpool";
  }
  text << "}\n";
  return text.str();
}

Workload random_workload(std::uint64_t seed, int layers) {
  std::mt19937_64 random(seed);
  const auto path = test::unique_temp_path("ergon_differential_" + std::to_string(seed) + ".yaml");
  std::ofstream file(path);
  file << "name: differential_" << seed << "\nsource: random test corpus\nindependent_layers: true\nlayers:\n";
  for (int i = 0; i < layers; ++i) file << random_layer(random, i);
  file.close();
  return load_workload(path.string());
}

AcceleratorConfig random_config(std::uint64_t seed) {
  std::mt19937_64 random(seed);
  const std::vector<std::string> overrides = {
      "pe_array.rows=" + std::to_string(uniform(random, 3, 12)),
      "pe_array.cols=" + std::to_string(uniform(random, 2, 14)),
      "pe_array.rf.filter_entries=" + std::to_string(uniform(random, 12, 224)),
      "pe_array.rf.ifmap_entries=" + std::to_string(uniform(random, 3, 12)),
      "pe_array.rf.psum_entries=" + std::to_string(uniform(random, 2, 24)),
      "glb.size_kib=" + std::to_string(uniform(random, 2, 100)),
      "glb.banks=" + std::to_string(uniform(random, 1, 4)),
      "noc.ifmap_bus_words=" + std::to_string(uniform(random, 1, 4)),
      "noc.filter_bus_words=" + std::to_string(uniform(random, 1, 4)),
      "noc.psum_read_bus_words=" + std::to_string(uniform(random, 1, 4)),
      "noc.psum_write_bus_words=" + std::to_string(uniform(random, 1, 4)),
      "dram.bandwidth_gbps=" + std::to_string(static_cast<double>(uniform(random, 1, 20)) / 10.0),
  };
  return load_accelerator_config(test::source_dir() + "/configs/eyeriss.yaml", overrides);
}

SimulationResult simulate(const AcceleratorConfig& config, const Workload& workload, Fidelity fidelity) {
  static const EnergyTable table = load_energy_table(test::source_dir() + "/power/tables/cnnergy_65nm.yaml");
  SimulationOptions options;
  options.fidelity = fidelity;
  return Simulation(config, table, workload, options).run();
}

// Cycles. The transaction level times a row-stationary pass with rates (dataflows/row_stationary/step_timing.hpp:
// each output column's step waits for the ifmap columns it needs, at the bus's average rate); the cycle-
// accurate array sends whole words every cycle and starts a set's step when its window is complete. On
// this corpus of tiny layers (a few passes of a few hundred cycles, where one step's rounding shows) the
// two differ by under 1% for most layers, and never by more than:
constexpr double kLayerCycleTolerance = 0.12;  // of a layer's cycles
constexpr double kTotalCycleTolerance = 0.02;  // of the corpus's cycles

double relative_difference(std::uint64_t a, std::uint64_t b) {
  const double larger = static_cast<double>(std::max(a, b));
  return larger == 0 ? 0.0 : std::abs(static_cast<double>(a) - static_cast<double>(b)) / larger;
}

// The resource that bounds a layer (docs/simulator.md, "What bounds a layer"): both fidelities charge a bus or
// port ceil(words / width) cycles per step for the same words, and the array its working cycles; on this
// corpus they name the same resource for every layer.
void expect_same_bound(const LayerResult& a, const LayerResult& b, const std::string& where) {
  EXPECT_NE(a.bound, kNoResource) << where;
  EXPECT_EQ(a.bound, b.bound) << where;
}

// A layer's transaction-level result `a` and cycle-accurate result `b`: identical counts, cycles within
// `cycle_tolerance` (systolic arrays: none), and a cycle-accurate output equal to the reference.
void expect_fidelities_agree(const LayerResult& a, const LayerResult& b, const std::string& where,
                             double cycle_tolerance) {
  EXPECT_TRUE(b.output_checked) << where;
  EXPECT_EQ(b.output_mismatches, 0u) << where;
  EXPECT_EQ(a.macs, b.macs) << where;
  EXPECT_EQ(a.nonzero_macs, b.nonzero_macs) << where;
  ASSERT_EQ(a.counters.size(), b.counters.size()) << where;
  ASSERT_GT(a.counters.size(), 0u) << where;
  for (const CounterSpec& counter : a.counters.specs()) {  // every registered counter: RF by operand, NoC, GLB, DRAM
    EXPECT_EQ(a.count(counter.name), b.count(counter.name)) << where << ": " << counter.name;
  }
  EXPECT_LE(relative_difference(a.cycles, b.cycles), cycle_tolerance)
      << where << ": " << a.cycles << " vs " << b.cycles << " cycles";
  const double stall_difference = std::abs(static_cast<double>(a.stall_cycles) - static_cast<double>(b.stall_cycles));
  EXPECT_LE(stall_difference, cycle_tolerance * static_cast<double>(std::max(a.cycles, b.cycles))) << where;
  expect_same_bound(a, b, where);
}

TEST(Differential, FidelitiesAgreeOnRandomLayers) {
  int compared = 0;
  std::uint64_t tlm_cycles = 0, cycle_accurate_cycles = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const Workload workload = random_workload(seed, 50);
    const AcceleratorConfig config = random_config(seed);
    const SimulationResult tlm = simulate(config, workload, Fidelity::kTransactionLevel);
    const SimulationResult cycle = simulate(config, workload, Fidelity::kCycleAccurate);
    ASSERT_EQ(tlm.layers.size(), cycle.layers.size());
    for (std::size_t i = 0; i < tlm.layers.size(); ++i) {
      const LayerResult& a = tlm.layers[i];
      const LayerResult& b = cycle.layers[i];
      if (!a.executed) continue;
      ++compared;
      tlm_cycles += a.cycles;
      cycle_accurate_cycles += b.cycles;
      const std::string where = "seed " + std::to_string(seed) + " " + a.name + " (" + a.op + ")";
      expect_fidelities_agree(a, b, where, kLayerCycleTolerance);
    }
  }
  EXPECT_GE(compared, 200);
  EXPECT_LE(relative_difference(tlm_cycles, cycle_accurate_cycles), kTotalCycleTolerance)
      << tlm_cycles << " vs " << cycle_accurate_cycles << " cycles";
  std::cout << "corpus cycles: transaction level " << tlm_cycles << ", cycle accurate " << cycle_accurate_cycles
            << "\n";
}

AcceleratorConfig random_systolic_config(std::uint64_t seed) {
  std::mt19937_64 random(seed);
  const char* dataflows[] = {"os", "ws", "is", "auto"};  // auto: each layer's own dataflow and fold order
  const char* reuses[] = {"capacity", "previous_fold"};  // capacity: stream tiles and psum spills too
  const char* accumulators[] = {"0", "16", "32"};
  const char* weight_widths[] = {"0", "4", "16"};  // packed narrower, or wider than the 8-bit activations
  const std::vector<std::string> overrides = {
      std::string("glb.fold_reuse=") + reuses[uniform(random, 0, 1)],
      std::string("pe_array.accumulator_bits=") + accumulators[uniform(random, 0, 2)],
      "pe_array.rows=" + std::to_string(uniform(random, 1, 12)),
      "pe_array.cols=" + std::to_string(uniform(random, 1, 12)),
      std::string("pe_array.dataflow=") + dataflows[uniform(random, 0, 3)],
      "glb.size_kib=" + std::to_string(uniform(random, 2, 64)),
      "glb.ofmap_size_kib=1",
      "glb.filter_size_kib=" + std::to_string(uniform(random, 1, 64)),
      "glb.banks=" + std::to_string(uniform(random, 1, 8)),
      "dram.bandwidth_gbps=" + std::to_string(static_cast<double>(uniform(random, 1, 50)) / 10.0),
      std::string("pe_array.weight_bits=") + weight_widths[uniform(random, 0, 2)],
  };
  return load_accelerator_config(test::source_dir() + "/configs/edge_tpu.yaml", overrides);
}

TEST(Differential, SystolicFidelitiesAgreeOnRandomLayers) {
  int compared = 0;
  for (std::uint64_t seed = 101; seed <= 115; ++seed) {
    const Workload workload = random_workload(seed, 20);
    const AcceleratorConfig config = random_systolic_config(seed);
    const SimulationResult tlm = simulate(config, workload, Fidelity::kTransactionLevel);
    const SimulationResult cycle = simulate(config, workload, Fidelity::kCycleAccurate);
    for (std::size_t i = 0; i < tlm.layers.size(); ++i) {
      const LayerResult& a = tlm.layers[i];
      const LayerResult& b = cycle.layers[i];
      if (!a.executed || (a.op != "conv" && a.op != "fc")) continue;
      ++compared;
      const std::string where =
          "seed " + std::to_string(seed) + " " + a.name + " (" +
          (config.pe_array.dataflow ? systolic_dataflow_name(*config.pe_array.dataflow) : "auto") + ")";
      expect_fidelities_agree(a, b, where, 0.0);
    }
  }
  EXPECT_GE(compared, 150);
}

TEST(Differential, SparseDataMatchesTheExpectedZeroShare) {
  const auto path = test::unique_temp_path("ergon_sparse_layer.yaml");
  std::ofstream(path) << "name: sparse\nsource: test\nlayers:\n"
                         "  - {name: image, op: input, shape: [16, 20, 20]}\n"
                         "  - {name: conv, op: conv, inputs: [image], filters: 24, kernel: 3, padding: 1,"
                         " sparsity: {ifmap: 0.6}}\n";
  const Workload workload = load_workload(path.string());
  const AcceleratorConfig config = load_accelerator_config(test::source_dir() + "/configs/eyeriss.yaml");
  const LayerResult tlm = simulate(config, workload, Fidelity::kTransactionLevel).layers[1];
  const LayerResult cycle = simulate(config, workload, Fidelity::kCycleAccurate).layers[1];
  EXPECT_EQ(cycle.output_mismatches, 0u);
  EXPECT_EQ(tlm.macs, cycle.macs);
  EXPECT_EQ(tlm.cycles, cycle.cycles);  // zero gating saves energy, not time
  const double expected = static_cast<double>(tlm.nonzero_macs);
  EXPECT_NEAR(static_cast<double>(cycle.nonzero_macs), expected, 0.02 * expected);
  EXPECT_LT(cycle.nonzero_macs, cycle.macs / 2);
  // DRAM: the stored ifmap is compressed by its actual zeros here, by the expected share there.
  const double expected_bytes = static_cast<double>(tlm.count("dram.read"));
  EXPECT_NEAR(static_cast<double>(cycle.count("dram.read")), expected_bytes, 0.02 * expected_bytes);
  EXPECT_EQ(tlm.count("dram.write"), cycle.count("dram.write"));
}

}  // namespace
}  // namespace ergon
