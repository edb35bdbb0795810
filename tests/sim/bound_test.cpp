// What bounds a layer (docs/simulator.md, "What bounds a layer"): every layer's `bound` is the resource with
// the largest busy share, the shares are the modules' busy times over the layer's time, and the labels name
// the real bottleneck: the DRAM for AlexNet's fc6 on Eyeriss, the single GLB bank port for an MLP on a small
// systolic array (which more banks relieve).
#include <gtest/gtest.h>

#include <cmath>

#include "common/busy_registry.hpp"
#include "sim/run_report.hpp"
#include "sim/simulation.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

SimulationResult simulate(const std::string& config_path, const std::string& workload_path, std::int64_t batch,
                          const std::vector<std::string>& overrides = {},
                          Fidelity fidelity = Fidelity::kTransactionLevel) {
  static const EnergyTable table = load_energy_table(test::source_dir() + "/power/tables/cnnergy_65nm.yaml");
  const AcceleratorConfig config = load_accelerator_config(config_path, overrides);
  const Workload workload = load_workload(workload_path);
  SimulationOptions options;
  options.batch = batch;
  options.fidelity = fidelity;
  return Simulation(config, table, workload, options).run();
}

std::string eyeriss() {
  return test::source_dir() + "/configs/eyeriss.yaml";
}
std::string systolic_16x16() {
  return test::data_dir() + "/bound/systolic_16x16.yaml";
}
std::string mlp() {
  return test::data_dir() + "/bound/mlp.yaml";
}

const LayerResult& layer_named(const SimulationResult& result, const std::string& name) {
  for (const LayerResult& layer : result.layers) {
    if (layer.name == name) return layer;
  }
  throw std::out_of_range("no layer " + name);
}

std::size_t resource_named(const SimulationResult& result, const std::string& name) {
  for (std::size_t i = 0; i < result.resources.size(); ++i) {
    if (result.resources[i].name == name) return i;
  }
  throw std::out_of_range("no resource " + name);
}

double period_ps(const LayerResult& layer) {
  return 1e6 / layer.levels.frequency_mhz;
}

// Every layer and the network's row: the shares are busy time over the layer's time, none above 1, and the
// bound is the first resource with the largest.
void expect_labels_follow_the_shares(const SimulationResult& result, const std::string& run) {
  ASSERT_GE(result.resources.size(), 6u) << run;
  std::vector<const LayerResult*> rows;
  for (const LayerResult& layer : result.layers) rows.push_back(&layer);
  rows.push_back(&result.total);
  for (const LayerResult* layer : rows) {
    const std::string where = run + " " + layer->name;
    ASSERT_EQ(layer->busy_ps.size(), result.resources.size()) << where;
    ASSERT_EQ(layer->busy_share.size(), result.resources.size()) << where;
    if (!layer->executed && layer != &result.total) {
      EXPECT_EQ(result.bound_name(*layer), "n/a") << where;
      continue;
    }
    std::size_t expected = 0;
    for (std::size_t i = 0; i < layer->busy_ps.size(); ++i) {
      EXPECT_DOUBLE_EQ(layer->busy_share[i], static_cast<double>(layer->busy_ps[i]) / (layer->time_ns * 1e3))
          << where << " " << result.resources[i].name;
      EXPECT_LE(layer->busy_share[i], 1.0 + 1e-9) << where << " " << result.resources[i].name;
      if (layer->busy_share[i] > layer->busy_share[expected]) expected = i;
    }
    ASSERT_NE(layer->bound, kNoResource) << where;
    EXPECT_EQ(layer->bound, expected) << where << ": " << result.bound_name(*layer);
  }
}

// The busy times the controller records equal what the layer's own figures say: its fill and drain stalls,
// its DVFS switch and the DRAM's busy time (dram_busy_cycles is the same figure rounded up to cycles).
void expect_busy_times_match_the_layer_figures(const SimulationResult& result, const std::string& run) {
  const std::size_t fill_drain = resource_named(result, "fill_drain");
  const std::size_t dvfs_switch = resource_named(result, "dvfs_switch");
  const std::size_t dram = resource_named(result, "dram");
  for (const LayerResult& layer : result.layers) {
    if (!layer.executed) continue;
    const std::string where = run + " " + layer.name;
    const double stalled_ps =
        static_cast<double>(layer.fill_stall_cycles + layer.drain_stall_cycles) * period_ps(layer);
    EXPECT_NEAR(static_cast<double>(layer.busy_ps[fill_drain]), stalled_ps, 1.0) << where;
    EXPECT_NEAR(static_cast<double>(layer.busy_ps[dvfs_switch]), layer.dvfs_switch_ns * 1e3, 1.0) << where;
    EXPECT_EQ(static_cast<std::uint64_t>(std::ceil(static_cast<double>(layer.busy_ps[dram]) / period_ps(layer))),
              layer.dram_busy_cycles)
        << where;
  }
}

TEST(Bound, LabelsAreTheLargestShareOfTheModulesBusyTime) {
  const std::pair<std::string, SimulationResult> runs[] = {
      {"alexnet on eyeriss", simulate(eyeriss(), test::source_dir() + "/workloads/alexnet.yaml", 1)},
      {"resnet8 on eyeriss", simulate(eyeriss(), test::source_dir() + "/workloads/resnet8.yaml", 2)},
      {"mlp on systolic", simulate(systolic_16x16(), mlp(), 8)},
      {"mlp on systolic, 4 banks", simulate(systolic_16x16(), mlp(), 8, {"glb.banks=4"})},
  };
  for (const auto& [run, result] : runs) {
    expect_labels_follow_the_shares(result, run);
    expect_busy_times_match_the_layer_figures(result, run);
  }
}

// Under a DVFS schedule that switches the compute clock between layers, the switches are a resource too.
TEST(Bound, DvfsSwitchesHaveTheirShare) {
  const EnergyTable table = load_energy_table(test::source_dir() + "/power/tables/cnnergy_65nm.yaml");
  const AcceleratorConfig config = load_accelerator_config(eyeriss(), {});
  const Workload workload = load_workload(test::source_dir() + "/workloads/resnet8.yaml");
  SimulationOptions options;
  for (std::size_t i = 0; i < workload.layers().size(); ++i) {
    OperatingLevels levels = nominal_levels(config);
    if (i % 2 == 1) levels.frequency_mhz /= 2;  // a switch at every executed layer's start, or nearly
    options.layer_levels.push_back(levels);
  }
  const SimulationResult result = Simulation(config, table, workload, options).run();
  expect_labels_follow_the_shares(result, "resnet8 switching");
  expect_busy_times_match_the_layer_figures(result, "resnet8 switching");
  EXPECT_GT(result.total.busy_share[resource_named(result, "dvfs_switch")], 0.0);
}

// The DRAM's busy time is its transfers at its bandwidth (`simple`: one bus, bursts back to back at most), and
// a systolic array's busy time is SCALE-Sim's per fold (T + R + C - 2, output stationary).
TEST(Bound, BusyTimesAreTheModulesOwn) {
  const SimulationResult result = simulate(systolic_16x16(), mlp(), 8, {"glb.banks=4"});
  const AcceleratorConfig config = load_accelerator_config(systolic_16x16(), {});
  double dram_ps = 0, dram_bytes = 0;
  for (const LayerResult& layer : result.layers) {
    dram_ps += static_cast<double>(layer.busy_ps[resource_named(result, "dram")]);
    dram_bytes += static_cast<double>(layer.dram_bytes());
  }
  EXPECT_NEAR(dram_ps, dram_bytes * 1e3 / config.dram.bandwidth_gbps, 0.01 * dram_ps);
  // fc1: 784 inputs, 512 outputs, batch 8 on 16x16: one row fold (8 pixels), 32 column folds of T = 784.
  const LayerResult& fc1 = layer_named(result, "fc1");
  const double array_cycles = 32.0 * (784 + 16 + 16 - 2);
  EXPECT_DOUBLE_EQ(static_cast<double>(fc1.busy_ps[resource_named(result, "array")]), array_cycles * period_ps(fc1));
}

TEST(Bound, AlexNetFc6OnEyerissIsBoundByTheDram) {
  const SimulationResult result = simulate(eyeriss(), test::source_dir() + "/workloads/alexnet.yaml", 4);
  const LayerResult& fc6 = layer_named(result, "fc6");
  EXPECT_EQ(result.bound_name(fc6), "dram");
  EXPECT_GT(fc6.busy_share[resource_named(result, "dram")], 0.85);
  EXPECT_LT(fc6.utilization, 0.1);
  EXPECT_EQ(result.bound_kind(fc6), ResourceKind::kMemory);
}

TEST(Bound, SystolicMlpIsBoundByTheSingleBankPortUntilMoreBanksRelieveIt) {
  const SimulationResult one_bank = simulate(systolic_16x16(), mlp(), 8);
  const SimulationResult four_banks = simulate(systolic_16x16(), mlp(), 8, {"glb.banks=4"});
  for (const char* name : {"fc1", "fc2"}) {
    const LayerResult& narrow = layer_named(one_bank, name);
    const LayerResult& wide = layer_named(four_banks, name);
    EXPECT_EQ(one_bank.bound_kind(narrow), ResourceKind::kBufferPort) << name << ": " << one_bank.bound_name(narrow);
    EXPECT_LT(narrow.utilization, 0.15) << name;
    EXPECT_NE(four_banks.bound_name(wide), one_bank.bound_name(narrow)) << name;
    EXPECT_GT(static_cast<double>(narrow.cycles), 3.0 * static_cast<double>(wide.cycles)) << name;
  }
}

// The run table, layers.csv and report.json show the same label and shares.
TEST(Bound, ReportsShowTheBoundAndEveryShare) {
  const SimulationResult result = simulate(systolic_16x16(), mlp(), 8);
  const LayerResult& fc1 = layer_named(result, "fc1");
  const std::string bound = result.bound_name(fc1);
  const std::string table = run_table(result);
  const std::size_t row = table.find("\nfc1 ");
  ASSERT_NE(row, std::string::npos);
  EXPECT_NE(table.substr(row, table.find('\n', row + 1) - row).find(" " + bound + " "), std::string::npos) << table;

  const std::string csv = layers_csv(result);
  const std::string header = csv.substr(0, csv.find('\n'));
  for (const ResourceSpec& resource : result.resources) {
    EXPECT_NE(header.find("," + resource.share_column() + ","), std::string::npos) << resource.name;
  }
  const std::size_t csv_row = csv.find("\n\"fc1\",");
  ASSERT_NE(csv_row, std::string::npos) << csv;
  EXPECT_NE(csv.substr(csv_row, csv.find('\n', csv_row + 1) - csv_row).find("," + bound + ","), std::string::npos);

  const AcceleratorConfig config = load_accelerator_config(systolic_16x16(), {});
  const nlohmann::ordered_json json = run_json(result, config, load_workload(mlp()), "tlm");
  EXPECT_EQ(json["schema_version"], kRunReportSchemaVersion);
  const nlohmann::ordered_json& layer = json["layers"][1];
  ASSERT_EQ(layer["name"], "fc1");
  EXPECT_EQ(layer["bound"], bound);
  for (std::size_t i = 0; i < result.resources.size(); ++i) {
    EXPECT_DOUBLE_EQ(layer["busy_share"][result.resources[i].name].get<double>(), fc1.busy_share[i]);
    EXPECT_DOUBLE_EQ(layer["busy_ns"][result.resources[i].name].get<double>(),
                     static_cast<double>(fc1.busy_ps[i]) / 1e3);
  }
  EXPECT_EQ(json["total"]["bound"], result.bound_name(result.total));
}

TEST(BusyRegistry, SnapshotsReadTheRegisteredFieldsAndRefuseDuplicates) {
  std::uint64_t port = 0, bus = 0;
  BusyRegistry registry;
  registry.add({"glb.read_port", ResourceKind::kBufferPort, BusyUnit::kComputeCycles, "port"}, port);
  registry.add({"dram", ResourceKind::kMemory, BusyUnit::kPicoseconds, "bus"}, bus);
  port = 7, bus = 3;
  EXPECT_EQ(registry.snapshot(), (std::vector<std::uint64_t>{7, 3}));
  EXPECT_EQ(registry.specs()[0].share_column(), "glb_read_port_busy_share");
  EXPECT_THROW(registry.add({"dram", ResourceKind::kMemory, BusyUnit::kPicoseconds, "again"}, bus), std::logic_error);
  EXPECT_THROW(registry.add({"Dram Bus", ResourceKind::kMemory, BusyUnit::kPicoseconds, ""}, bus), std::logic_error);
  EXPECT_EQ(busiest({3, 7, 7}), 1u);  // ties: the first registered
  EXPECT_EQ(busiest({0, 0}), kNoResource);
}

}  // namespace
}  // namespace ergon
