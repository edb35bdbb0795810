// A transformer's decode step reads every weight for one token (about one MAC per weight byte), so it streams
// its weights from DRAM: GPT-2's decode step (workloads/gpt2_decode.yaml) must come out DRAM-bound on every
// shipped config. The network's bound is the resource busy for the largest share of the run (each resource's
// busy time summed over the layers, over the latency: docs/simulator.md, "What bounds a layer"); it is checked
// here against the layers' busy times it sums, and in the printed table and report.json.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "sim/data_paths.hpp"
#include "sim/run_report.hpp"
#include "sim/simulation.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

std::vector<std::string> shipped_configs() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(test::source_dir() + "/configs")) {
    if (entry.path().extension() == ".yaml") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

class DecodeStep : public ::testing::TestWithParam<std::string> {};

TEST_P(DecodeStep, IsBoundByTheDramOnEveryShippedConfig) {
  const AcceleratorConfig config = load_accelerator_config(test::source_dir() + "/configs/" + GetParam() + ".yaml");
  const EnergyTable table = load_energy_table(energy_table_path(config));
  const Workload workload = load_workload(test::source_dir() + "/workloads/gpt2_decode.yaml");
  const SimulationResult result = Simulation(config, table, workload, {}).run();
  const LayerResult& total = result.total;
  ASSERT_EQ(total.busy_ps.size(), result.resources.size());

  // The network's row sums each resource's busy time over the layers; its shares are those sums over the
  // latency, and its bound the largest (the first registered on a tie).
  std::vector<std::uint64_t> summed(result.resources.size(), 0);
  for (const LayerResult& layer : result.layers) {
    for (std::size_t i = 0; i < layer.busy_ps.size(); ++i) summed[i] += layer.busy_ps[i];
  }
  std::size_t busiest = 0;
  for (std::size_t i = 0; i < summed.size(); ++i) {
    EXPECT_EQ(total.busy_ps[i], summed[i]) << result.resources[i].name;
    EXPECT_DOUBLE_EQ(total.busy_share[i], static_cast<double>(summed[i]) / (total.time_ns * 1e3))
        << result.resources[i].name;
    if (summed[i] > summed[busiest]) busiest = i;
  }
  EXPECT_EQ(total.bound, busiest);
  EXPECT_EQ(result.bound_name(total), "dram") << GetParam();
  EXPECT_EQ(result.bound_kind(total), ResourceKind::kMemory) << GetParam();

  // Physically: every weight crosses the DRAM interface once, but for those a weight cache (glb.keep_weights)
  // holds from the previous step.
  const std::uint64_t word_bytes = static_cast<std::uint64_t>(config.pe_array.word_bits) / 8;
  const std::uint64_t cached = total.activations_on_chip ? total.activations_on_chip->weight_bytes_found : 0;
  EXPECT_GE(total.count("dram.read") + cached, workload.total_params() * word_bytes) << GetParam();

  // The printed table's network row and report.json name the same bound.
  const std::string printed = run_table(result);
  const std::size_t row = printed.find("\ntotal ");
  ASSERT_NE(row, std::string::npos) << printed;
  EXPECT_NE(printed.substr(row, printed.find('\n', row + 1) - row).find(" dram "), std::string::npos) << printed;
  EXPECT_EQ(run_json(result, config, workload, "tlm")["total"]["bound"], "dram");

  double dram_share = 0;
  for (std::size_t i = 0; i < result.resources.size(); ++i) {
    if (result.resources[i].name == "dram") dram_share = total.busy_share[i];
  }
  std::cout << GetParam() << ": " << result.bound_name(total) << " busy " << 100 * dram_share << "% of "
            << total.time_ns / 1e6 << " ms\n";
}

std::string config_name(const ::testing::TestParamInfo<std::string>& config) {
  return config.param;
}

INSTANTIATE_TEST_SUITE_P(ShippedConfigs, DecodeStep, ::testing::ValuesIn(shipped_configs()), config_name);

}  // namespace
}  // namespace ergon
