// The roofline bound (power/estimators/roofline.hpp) against the simulator: for every shipped workload on
// every shipped config it covers the same work (the layers the array runs, their MACs, vector operations
// and batch) and no simulated layer beats it; `--batch` overrides every layer's batch as `ergon run
// --batch` does; the report's figures are the bound's.
#include "power/estimators/roofline.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "power/estimators/registry.hpp"
#include "sim/data_paths.hpp"
#include "sim/simulation.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> shipped(const std::string& folder, bool recursive) {
  std::vector<std::string> files;
  const fs::path root = test::source_dir() + "/" + folder;
  const auto add = [&files](const fs::directory_entry& entry) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path().string());
  };
  if (recursive) {
    for (const auto& entry : fs::recursive_directory_iterator(root)) add(entry);
  } else {
    for (const auto& entry : fs::directory_iterator(root)) add(entry);
  }
  std::sort(files.begin(), files.end());
  return files;
}

nlohmann::json roofline_report(const Workload& workload, const ChipInputs& chip, const EstimatorSettings& settings) {
  const EstimateReport report = find_estimator("roofline")->estimate({workload, &chip, settings, test::source_dir()});
  return nlohmann::json::parse(report.forms.json);
}

// Every executed simulated layer has a bound over the same work, at most its simulated time; and the
// bound has no layer the simulator does not run.
void expect_bound_holds(const SimulationResult& simulated, const nlohmann::json& report, const std::string& pair) {
  std::map<std::string, nlohmann::json> bounds;
  for (const auto& layer : report["layers"]) bounds[layer["name"].get<std::string>()] = layer;
  std::size_t executed = 0;
  double simulated_ms_per_image = 0;
  for (const LayerResult& layer : simulated.layers) {
    if (!layer.executed) {
      EXPECT_EQ(bounds.count(layer.name), 0u) << pair << ": " << layer.name << " is not run but has a bound";
      continue;
    }
    ++executed;
    simulated_ms_per_image += layer.time_ns * 1e-6 / static_cast<double>(layer.batch);
    const auto found = bounds.find(layer.name);
    if (found == bounds.end()) {
      ADD_FAILURE() << pair << ": no bound for " << layer.name;
      continue;
    }
    const nlohmann::json& bound = found->second;
    EXPECT_EQ(bound["batch"].get<std::int64_t>(), layer.batch) << pair << " " << layer.name;
    EXPECT_EQ(bound["macs"].get<std::uint64_t>(), layer.macs) << pair << " " << layer.name;
    EXPECT_EQ(bound["vector_ops"].get<std::uint64_t>(), layer.vector_ops) << pair << " " << layer.name;
    const double simulated_ms = layer.time_ns * 1e-6;
    EXPECT_LE(bound["latency_ms"].get<double>(), simulated_ms * (1 + 1e-9))
        << pair << " " << layer.name << ": bound " << bound["latency_ms"] << " ms (" << bound["bound"]
        << ") above the simulated " << simulated_ms << " ms";
  }
  EXPECT_EQ(bounds.size(), executed) << pair;
  EXPECT_LE(report["total_latency_ms_per_image"].get<double>(), simulated_ms_per_image * (1 + 1e-9)) << pair;
}

// The reference chips (docs/architectures.md) run the workloads of at most 100 M MACs here: a 64-MAC NVDLA
// plans and simulates ResNet-50 in half a minute, beyond the test budget; the other configs run them all.
bool reference_chip(const std::string& name) {
  return name == "coral_edge_tpu" || name == "tpu_v1" || name == "gemmini" || name == "nvdla_full" ||
         name == "nvdla_small";
}
constexpr std::uint64_t kReferenceChipMacs = 100'000'000;

TEST(Roofline, EveryShippedWorkloadOnEveryShippedConfigStaysUnderTheSimulation) {
  const auto start = std::chrono::steady_clock::now();
  std::size_t pairs = 0;
  for (const std::string& config_path : shipped("configs", false)) {
    AcceleratorConfig config = load_accelerator_config(config_path);
    EnergyTable table = load_energy_table(energy_table_path(config));
    const ChipInputs chip{config, table};
    for (const std::string& workload_path : shipped("workloads", true)) {
      const Workload workload = load_workload(workload_path);
      if (reference_chip(config.name) && workload.total_macs() > kReferenceChipMacs) continue;
      const std::string pair = fs::path(workload_path).filename().string() + " on " + config.name;
      const SimulationResult simulated = Simulation(config, table, workload, {}).run();
      expect_bound_holds(simulated, roofline_report(workload, chip, {}), pair);
      ++pairs;
    }
  }
  EXPECT_GE(pairs, 4u * 21u + 5u * 4u);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << pairs << " pairs in " << seconds << " s\n";
}

// Activations kept on chip leave only the weights and the network's input and outputs to DRAM: the bound
// drops them too and still holds, on the residual and the concat-heavy networks.
TEST(Roofline, HoldsWhenActivationsStayOnChip) {
  AcceleratorConfig config = load_accelerator_config(test::source_dir() + "/configs/edge_tpu.yaml",
                                                     {"glb.keep_activations=when_fits", "glb.size_kib=8192"});
  EnergyTable table = load_energy_table(energy_table_path(config));
  const ChipInputs chip{config, table};
  for (const char* name : {"resnet8", "mobilenet_v2", "googlenet_v1"}) {
    const Workload workload = load_workload(test::source_dir() + "/workloads/" + name + ".yaml");
    const SimulationResult simulated = Simulation(config, table, workload, {}).run();
    ASSERT_GT(simulated.total.activations_on_chip->output_bytes_kept, 0u) << name;
    expect_bound_holds(simulated, roofline_report(workload, chip, {}), std::string(name) + " kept on chip");
  }
}

ChipInputs eyeriss() {
  AcceleratorConfig config = load_accelerator_config(test::source_dir() + "/configs/eyeriss.yaml");
  EnergyTable table = load_energy_table(energy_table_path(config));
  return {std::move(config), std::move(table)};
}

// CNNergy's AlexNet table runs each layer at its own batch (1 to 18): the bound covers that batch, fetching
// the weights once, so fc6's bound per image is far below one image's.
TEST(Roofline, PricesEachLayersOwnBatchWithTheWeightsOncePerBatch) {
  const Workload alexnet = load_workload(test::source_dir() + "/workloads/cnnergy/alexnet.yaml");
  const ChipInputs chip = eyeriss();
  const Roofline own = roofline_bound(alexnet, chip.config, std::nullopt);
  const Roofline single = roofline_bound(alexnet, chip.config, 1);
  ASSERT_EQ(own.layers.size(), single.layers.size());
  bool some_batch_above_one = false;
  for (std::size_t i = 0; i < own.layers.size(); ++i) {
    const RooflineLayer& batched = own.layers[i];
    const RooflineLayer& one = single.layers[i];
    EXPECT_EQ(batched.batch, alexnet.find_layer(batched.name)->batch) << batched.name;
    some_batch_above_one |= batched.batch > 1;
    const double n = static_cast<double>(batched.batch);
    EXPECT_DOUBLE_EQ(batched.traffic.weight_bytes, one.traffic.weight_bytes) << batched.name;
    EXPECT_NEAR(batched.traffic.ifmap_bytes, n * one.traffic.ifmap_bytes, 1e-6 * batched.traffic.ifmap_bytes);
    EXPECT_NEAR(batched.traffic.ofmap_bytes, n * one.traffic.ofmap_bytes, 1e-6 * batched.traffic.ofmap_bytes);
    EXPECT_EQ(batched.macs, one.macs * static_cast<std::uint64_t>(batched.batch)) << batched.name;
  }
  EXPECT_TRUE(some_batch_above_one);
  EXPECT_LT(own.total_ms_per_image(), single.total_ms_per_image());
}

// `--batch N` gives every layer N images, as the simulation with SimulationOptions::batch does.
TEST(Roofline, BatchOptionOverridesEveryLayersBatch) {
  const Workload resnet8 = load_workload(test::source_dir() + "/workloads/resnet8.yaml");
  const ChipInputs chip = eyeriss();
  EstimatorSettings settings;
  settings.set("batch", "4");
  // The refusals first: SystemC 2.3 does not tell AddressSanitizer of its coroutine stack switches, so in
  // the sanitizer build an exception thrown after a simulation has run is misreported (a false positive).
  for (const char* bad : {"0", "x", "4.5", "1048577"}) {
    EstimatorSettings wrong;
    wrong.set("batch", bad);
    try {
      roofline_report(resnet8, chip, wrong);
      ADD_FAILURE() << "batch " << bad << " accepted";
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find("--batch " + std::string(bad) + ": give an integer from 1 to 1048576"),
                std::string::npos)
          << error.what();
    }
  }
  const nlohmann::json report = roofline_report(resnet8, chip, settings);
  EXPECT_EQ(report["batch"], 4);
  SimulationOptions options;
  options.batch = 4;
  expect_bound_holds(Simulation(chip.config, chip.table, resnet8, options).run(), report, "resnet8 at batch 4");
}

// What `ergon estimate roofline` prints and `ergon compare` shows are the bound's figures: per layer, the
// batch's latency and that over the batch; the total per image is their sum.
TEST(Roofline, ReportFormsAndComparisonSourceShowTheBound) {
  const Workload alexnet = load_workload(test::source_dir() + "/workloads/cnnergy/alexnet.yaml");
  const ChipInputs chip = eyeriss();
  const Roofline bound = roofline_bound(alexnet, chip.config, std::nullopt);
  const EstimateReport report = find_estimator("roofline")->estimate({alexnet, &chip, {}, test::source_dir()});
  const nlohmann::json json = nlohmann::json::parse(report.forms.json);
  ASSERT_EQ(json["layers"].size(), bound.layers.size());
  ASSERT_EQ(report.source.layers.size(), bound.layers.size());
  double sum = 0;
  for (std::size_t i = 0; i < bound.layers.size(); ++i) {
    const RooflineLayer& l = bound.layers[i];
    EXPECT_DOUBLE_EQ(json["layers"][i]["latency_ms"].get<double>(), l.latency_ms());
    EXPECT_DOUBLE_EQ(json["layers"][i]["latency_ms_per_image"].get<double>(),
                     l.latency_ms() / static_cast<double>(l.batch));
    EXPECT_DOUBLE_EQ(json["layers"][i]["dram_bytes"].get<double>(), l.traffic.total_bytes());
    EXPECT_DOUBLE_EQ(*report.source.layers[i].latency_ms, l.latency_ms_per_image());
    sum += l.latency_ms_per_image();
  }
  EXPECT_DOUBLE_EQ(json["total_latency_ms_per_image"].get<double>(), sum);
  EXPECT_DOUBLE_EQ(*report.source.latency_ms, sum);
  EXPECT_NE(report.forms.table.find(fmt::format("total latency bound: {:.4f} ms per image", sum)), std::string::npos)
      << report.forms.table;
  EXPECT_NE(report.forms.csv.find(fmt::format("total,,,,,,,,,,,,{}\n", sum)), std::string::npos) << report.forms.csv;
}

}  // namespace
}  // namespace ergon
