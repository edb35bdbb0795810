// How well the row-stationary array is kept busy on configs/eyeriss.yaml once the mapper searches and ifmaps
// stream during compute, and how close the mapper's cycle estimate comes to the simulation it ranks for.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "sim/simulation.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

const EnergyTable& table() {
  static const EnergyTable loaded = load_energy_table(test::source_dir() + "/power/tables/cnnergy_65nm.yaml");
  return loaded;
}

AcceleratorConfig eyeriss(const std::vector<std::string>& overrides = {}) {
  return load_accelerator_config(test::source_dir() + "/configs/eyeriss.yaml", overrides);
}

// One 3x3 'same' convolution on a channels x side x side input.
Workload conv3x3(std::int64_t channels, std::int64_t filters, std::int64_t side) {
  const std::string name =
      "conv3x3_" + std::to_string(channels) + "_" + std::to_string(filters) + "_" + std::to_string(side);
  const auto path = test::unique_temp_path("ergon_" + name + ".yaml");
  std::ofstream(path) << "name: " << name << "\nsource: test layer\nlayers:\n"
                      << "  - {name: image, op: input, shape: [" << channels << ", " << side << ", " << side << "]}\n"
                      << "  - {name: conv, op: conv, inputs: [image], filters: " << filters
                      << ", kernel: 3, padding: same}\n";
  return load_workload(path.string());
}

LayerResult simulate_conv(const AcceleratorConfig& config, const Workload& workload, std::int64_t batch = 1) {
  SimulationOptions options;
  options.batch = batch;
  const SimulationResult result = Simulation(config, table(), workload, options).run();
  for (const LayerResult& layer : result.layers) {
    if (layer.executed) return layer;
  }
  ADD_FAILURE() << "no layer executed";
  return {};
}

double utilisation(const LayerResult& layer, const AcceleratorConfig& config) {
  return static_cast<double>(layer.macs) /
         (static_cast<double>(config.pe_array.rows * config.pe_array.cols) * static_cast<double>(layer.cycles));
}

// 128 -> 256 channels on 56x56 tiles the 12x14 array evenly. Each pass must first load its filters into the
// RFs over the 4-word filter bus: with 4 sets of 3 rows side by side that is 3 x 4 / (4 x 56) = 5.4% of the
// pass's compute, so at batch 1 the stock array tops out just under 95% (the latency objective finds 94.7%).
// With the filter preload hidden, by a double-buffered filter RF or by a second image that keeps the
// filters in the PEs, the array must stay at least 95% busy.
TEST(RowStationaryTiming, EvenlyTilingConvKeepsTheArrayBusy) {
  const Workload layer = conv3x3(128, 256, 56);
  const AcceleratorConfig double_buffered =
      eyeriss({"mapper.objective=latency", "pe_array.rf.filter_double_buffered=true"});
  EXPECT_GE(utilisation(simulate_conv(double_buffered, layer), double_buffered), 0.95);
  const AcceleratorConfig stock = eyeriss({"mapper.objective=latency"});
  EXPECT_GE(utilisation(simulate_conv(stock, layer, 2), stock), 0.95);
  // At batch 1 the filter preload bound above holds, and nothing else costs more than a few percent.
  const double batch_one = utilisation(simulate_conv(stock, layer), stock);
  EXPECT_LE(batch_one, 1.0 - 3.0 * 4.0 / (4.0 * 56.0) + 0.01);
  EXPECT_GE(batch_one, 0.90);
}

// Timeloop's VGG02 layer 5 (layer_shapes/CONV/VGG02/VGG02_layer5.yaml in its exercises: C 128, M 256, 56x56,
// 3x3) on an 8-bit Eyeriss-like array after its eyeriss_like exercise (RFs of 192 filter, 12 ifmap and 16 psum
// words, a 128 KiB GLB in 32 banks, 64-bit buses) with the array-level mapping pinned: the GLB level decides
// only DRAM traffic, which the computation hides. The latency objective must break the tie in cycles by
// energy, as Timeloop's [delay, energy] does. Before it did (this config, measured with the binary of that
// time), it chose a schedule with 6.6x the DRAM bytes and 48% more energy than edp's at the same cycles.
TEST(RowStationaryTiming, LatencyBreaksCycleTiesByEnergy) {
  const auto config_path = test::unique_temp_path("ergon_eyeriss_like_8bit.yaml");
  std::ofstream(config_path)
      << "name: eyeriss_like_8bit\ndescription: test\n"
      << "clock: {frequency_mhz: 200, voltage_v: 1.0}\n"
      << "pe_array: {impl: row_stationary, rows: 12, cols: 14, word_bits: 8,\n"
      << "  rf: {filter_entries: 192, ifmap_entries: 12, psum_entries: 16}}\n"
      << "glb: {impl: banked, size_kib: 128, filter_size_kib: 8, banks: 32, bank_width_bits: 64}\n"
      << "noc: {filter_bus_words: 8, ifmap_bus_words: 8, psum_read_bus_words: 8, "
      << "psum_write_bus_words: 8}\n"
      << "dram: {preset: custom, word_bits: 8, bandwidth_gbps: 1.6, latency_ns: 100}\n"
      << "energy: {table: cnnergy_65nm}\n";
  const auto pins_path = test::unique_temp_path("ergon_vgg02_pins.yaml");
  std::ofstream(pins_path) << "layers:\n  conv: {ofmap_rows: 7, channels_per_pe: 2, filters_per_pe: 16, "
                           << "channel_sets: 4, filter_sets: 2, images: 1}\n";
  SimulationOptions options;
  options.mapping = load_mapping_file(pins_path.string());
  const Workload layer = conv3x3(128, 256, 56);
  const auto simulate = [&](const std::string& objective) {
    const AcceleratorConfig config = load_accelerator_config(config_path.string(), {"mapper.objective=" + objective});
    for (const LayerResult& result : Simulation(config, table(), layer, options).run().layers) {
      if (result.executed) return result;
    }
    ADD_FAILURE() << "no layer executed";
    return LayerResult{};
  };
  const LayerResult latency = simulate("latency"), edp = simulate("edp");
  EXPECT_GT(latency.macs, 900'000'000u);  // the whole layer ran
  EXPECT_EQ(latency.cycles, edp.cycles);
  const auto dram_bytes = [](const LayerResult& r) { return r.count("dram.read") + r.count("dram.write"); };
  EXPECT_LE(dram_bytes(latency), dram_bytes(edp));
  EXPECT_LE(latency.energy.total_pj(), edp.energy.total_pj());
}

// Neighbouring layer sizes use the array alike: no 2x utilisation cliff from the mapper halving the
// array (a 3x3 128->128 layer went from 84 to 42 active PEs between sides 96 and 100).
TEST(RowStationaryTiming, NoUtilisationCliffBetweenNeighbouringSizes) {
  const AcceleratorConfig config = eyeriss();
  double previous = 0;
  for (std::int64_t side = 88; side <= 112; side += 4) {
    const double current = utilisation(simulate_conv(config, conv3x3(128, 128, side)), config);
    EXPECT_GE(current, 0.6) << "side " << side;
    if (previous > 0) {
      EXPECT_LE(std::max(current, previous) / std::min(current, previous), 1.25)
          << "sides " << side - 4 << ", " << side;
    }
    previous = current;
  }
}

// Spare GLB capacity buys reuse: AlexNet's simulated DRAM traffic falls at every step from 32 to 512 KiB
// (with the fixed schedule it stayed flat above 16 KiB). Measured at batch 4: 152.2 MB at 32 KiB, 130.7 MB at
// 512 KiB.
TEST(RowStationaryTiming, AlexNetDramTrafficFallsAsTheGlbGrows) {
  const Workload alexnet = load_workload(test::source_dir() + "/workloads/alexnet.yaml");
  SimulationOptions options;
  options.batch = 4;
  std::vector<double> dram_bytes;
  for (const int kib : {32, 64, 128, 256, 512}) {
    const AcceleratorConfig config = eyeriss({"glb.size_kib=" + std::to_string(kib)});
    const SimulationResult result = Simulation(config, table(), alexnet, options).run();
    double bytes = 0;
    for (const LayerResult& layer : result.layers) {
      bytes += static_cast<double>(layer.count("dram.read") + layer.count("dram.write"));
    }
    if (!dram_bytes.empty()) {
      EXPECT_LT(bytes, dram_bytes.back()) << kib << " KiB";
    }
    dram_bytes.push_back(bytes);
  }
  EXPECT_LT(dram_bytes.back(), 0.9 * dram_bytes.front());
}

// The mapper ranks mappings by its closed-form estimate and replays the best few pass by pass; the simulation
// of the chosen mapping is the answer. Its DRAM bytes and GLB accesses equal what the simulated modules count.
// The replayed estimate is within kEstimateTolerance of the simulated cycles on every convolution of AlexNet
// and VGG-16 (batch 4) and ResNet-50 (batch 1), and on hardware variants (below).
constexpr double kEstimateTolerance = 0.10;

TEST(RowStationaryTiming, CostModelCyclesAgreeWithTheSimulation) {
  const AcceleratorConfig config = eyeriss();
  double worst = 0;
  for (const auto& [name, batch] :
       {std::pair<std::string, std::int64_t>{"alexnet", 4}, {"vgg16", 4}, {"resnet50", 1}}) {
    SimulationOptions options;
    options.batch = batch;
    const Workload workload = load_workload(test::source_dir() + "/workloads/" + name + ".yaml");
    const SimulationResult result = Simulation(config, table(), workload, options).run();
    for (const LayerResult& layer : result.layers) {
      if (!layer.executed || !layer.mapping || !layer.mapping->estimate || layer.op != "conv") continue;
      EXPECT_EQ(layer.mapping->estimate->dram_bytes, layer.count("dram.read") + layer.count("dram.write"))
          << name << " " << layer.name << ": the simulated modules move what the cost model counted";
      EXPECT_EQ(layer.mapping->estimate->glb_accesses, layer.count("glb.read") + layer.count("glb.write"))
          << name << " " << layer.name;
      const double estimate = layer.mapping->estimate->cycles, simulated = static_cast<double>(layer.cycles);
      const double error = std::abs(estimate - simulated) / simulated;
      worst = std::max(worst, error);
      EXPECT_LE(error, kEstimateTolerance)
          << name << " " << layer.name << ": estimate " << estimate << ", simulated " << simulated;
    }
  }
  std::cout << "largest estimate error: " << worst * 100 << "%\n";
}

// The estimate holds on hardware the shipped config does not have: every combination of bus widths (2, 4
// and 1024 words), a single- or double-buffered filter RF, 1 or 25 GLB banks and 1.6 or 6.4 GB/s of DRAM,
// under the energy and latency objectives (which choose different mappings), on every convolution of three
// small networks. Wide buses leave DRAM and the GLB ports to bound the passes; narrow ones the buses.
TEST(RowStationaryTiming, CostModelCyclesAgreeOnHardwareVariants) {
  std::vector<Workload> networks;
  for (const std::string name : {"resnet8", "ds_cnn", "mobilenet_v1_025_vww"}) {
    networks.push_back(load_workload(test::source_dir() + "/workloads/" + name + ".yaml"));
  }
  double worst = 0;
  std::string worst_where;
  int layers = 0;
  for (const std::string bus : {"2", "4", "1024"}) {
    for (const std::string filter_double_buffered : {"false", "true"}) {
      for (const std::string banks : {"1", "25"}) {
        for (const std::string dram_gbps : {"1.6", "6.4"}) {
          for (const std::string objective : {"energy", "latency"}) {
            const std::vector<std::string> overrides = {"noc.filter_bus_words=" + bus,
                                                        "noc.ifmap_bus_words=" + bus,
                                                        "noc.psum_read_bus_words=" + bus,
                                                        "noc.psum_write_bus_words=" + bus,
                                                        "pe_array.rf.filter_double_buffered=" + filter_double_buffered,
                                                        "glb.banks=" + banks,
                                                        "dram.bandwidth_gbps=" + dram_gbps,
                                                        "mapper.objective=" + objective};
            const AcceleratorConfig config = eyeriss(overrides);
            for (const Workload& workload : networks) {
              const SimulationResult result = Simulation(config, table(), workload, SimulationOptions{}).run();
              for (const LayerResult& layer : result.layers) {
                if (!layer.executed || !layer.mapping || !layer.mapping->estimate || layer.op != "conv") continue;
                const double estimate = layer.mapping->estimate->cycles;
                const double simulated = static_cast<double>(layer.cycles);
                const double error = std::abs(estimate - simulated) / simulated;
                std::string where = workload.name() + " " + layer.name;
                for (const std::string& o : overrides) where += " " + o;
                if (error > worst) worst = error, worst_where = where;
                EXPECT_LE(error, kEstimateTolerance)
                    << where << ": estimate " << estimate << ", simulated " << simulated;
                ++layers;
              }
            }
          }
        }
      }
    }
  }
  EXPECT_GE(layers, 2000);
  std::cout << "largest estimate error over " << layers << " layers: " << worst * 100 << "% (" << worst_where << ")\n";
}

}  // namespace
}  // namespace ergon
