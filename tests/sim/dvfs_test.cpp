// DVFS in the simulator: levels change at layer boundaries, the switch stalls the compute clock, time
// and energy follow the level in force, and both fidelities agree on a scheduled run.
#include <gtest/gtest.h>

#include "arch/dvfs_levels.hpp"
#include "sim/dvfs/dvfs_pareto.hpp"
#include "sim/dvfs/dvfs_run.hpp"
#include "sim/simulation.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

AcceleratorConfig config_named(const std::string& name, const std::vector<std::string>& overrides = {}) {
  return load_accelerator_config(test::source_dir() + "/configs/" + name + ".yaml", overrides);
}

const EnergyTable& table() {
  static const EnergyTable loaded = load_energy_table(test::source_dir() + "/power/tables/cnnergy_65nm.yaml");
  return loaded;
}

const Workload& resnet8() {
  static const Workload loaded = load_workload(test::source_dir() + "/workloads/resnet8.yaml");
  return loaded;
}

std::vector<OperatingLevels> all_at(const AcceleratorConfig& config, const Workload& workload, double frequency_mhz) {
  const OperatingLevels level{frequency_mhz, compute_voltage_at(config.dvfs, frequency_mhz), config.dram.bandwidth_gbps,
                              config.dvfs.memory_voltage_v};
  return std::vector<OperatingLevels>(workload.layers().size(), level);
}

TEST(DvfsConfig, DefaultComputeLevelsAreFiftyMegahertzStepsWithVoltageProportionalToFrequencyAboveItsMinimum) {
  const AcceleratorConfig config = config_named("edge_tpu");
  ASSERT_EQ(config.dvfs.compute_levels.size(), 10u);  // 50 ... 500 MHz
  EXPECT_DOUBLE_EQ(config.dvfs.compute_levels.front().frequency_mhz, 50);
  EXPECT_DOUBLE_EQ(config.dvfs.compute_levels.front().voltage_v, 0.6);  // the default minimum, not 0.08 V
  EXPECT_DOUBLE_EQ(config.dvfs.compute_levels.back().frequency_mhz, 500);
  EXPECT_DOUBLE_EQ(compute_voltage_at(config.dvfs, 450), 0.72);
  EXPECT_DOUBLE_EQ(compute_voltage_at(config.dvfs, 375), 0.62);  // between 350 MHz (0.6 V) and 400 (0.64)
  EXPECT_DOUBLE_EQ(compute_voltage_at(config.dvfs, 120), 0.6);
  EXPECT_DOUBLE_EQ(compute_level_at_or_above(config.dvfs, 351).frequency_mhz, 400);  // rounds up
  EXPECT_DOUBLE_EQ(config.dvfs.compute_switch_overhead_us, 10);
  const AcceleratorConfig ideal = config_named("edge_tpu", {"dvfs.compute.min_voltage_v=0"});
  EXPECT_DOUBLE_EQ(ideal.dvfs.compute_levels.front().voltage_v, 0.08);  // ARADA's V ~ f, on request
}

// The memory domain's levels are the data rates its DRAM can be clocked at (LPDDR4: 533 ... 3200 MT/s),
// all at the DRAM's fixed supply; a custom DRAM gets 16 equal steps.
TEST(DvfsConfig, DefaultMemoryLevelsAreTheDramsDataRates) {
  const AcceleratorConfig config = config_named("edge_tpu");
  ASSERT_EQ(config.dvfs.memory_levels.size(), 6u);
  EXPECT_DOUBLE_EQ(config.dvfs.memory_levels.front().bandwidth_gbps, config.dram.bandwidth_gbps * 533 / 3200);
  EXPECT_DOUBLE_EQ(config.dvfs.memory_levels.back().bandwidth_gbps, config.dram.bandwidth_gbps);
  for (const MemoryLevel& level : config.dvfs.memory_levels) {
    EXPECT_DOUBLE_EQ(level.voltage_v, config.dvfs.memory_voltage_v);
  }
  EXPECT_DOUBLE_EQ(memory_level_for(config.dvfs, 13.0).bandwidth_gbps, config.dram.bandwidth_gbps * 2133 / 3200);
  EXPECT_EQ(config_named("eyeriss").dvfs.memory_levels.size(), 16u);
  EXPECT_EQ(config_named("edge_tpu", {"dvfs.memory.steps=4"}).dvfs.memory_levels.size(), 4u);
}

TEST(DvfsSimulation, HalfTheClockDoublesComputeTimeAndQuartersDynamicEnergy) {
  // Compute-bound, and V ~ f down to 0.5 V.
  const AcceleratorConfig config =
      config_named("eyeriss", {"dram.bandwidth_gbps=1000", "dvfs.compute.min_voltage_v=0.5"});
  const SimulationResult nominal = Simulation(config, table(), resnet8(), {}).run();
  SimulationOptions options;
  options.layer_levels = all_at(config, resnet8(), 100);
  const SimulationResult halved = Simulation(config, table(), resnet8(), options).run();
  // The first layer switches; the others run on at the same level.
  EXPECT_DOUBLE_EQ(halved.total.dvfs_switch_ns, 10000);
  EXPECT_EQ(halved.total.macs, nominal.total.macs);
  EXPECT_NEAR(static_cast<double>(halved.total.compute_cycles), static_cast<double>(nominal.total.compute_cycles),
              0.01 * static_cast<double>(nominal.total.compute_cycles));
  EXPECT_GT(halved.total.time_ns - 10000, 1.9 * nominal.total.time_ns);
  EXPECT_NEAR(halved.total.energy.component_pj("mac"), 0.25 * nominal.total.energy.component_pj("mac"),
              1e-6 * nominal.total.energy.component_pj("mac"));
  EXPECT_NEAR(halved.total.energy.component_pj("dram"), nominal.total.energy.component_pj("dram"),
              1e-9 * nominal.total.energy.component_pj("dram"));
  for (const LayerResult& layer : halved.layers) {
    if (layer.executed) {
      EXPECT_DOUBLE_EQ(layer.levels.frequency_mhz, 100);
    }
  }
}

TEST(DvfsSimulation, ASwitchStallsOnlyTheLayerWhoseLevelDiffers) {
  const AcceleratorConfig config = config_named("eyeriss");
  SimulationOptions options;
  options.layer_levels = all_at(config, resnet8(), config.clock.frequency_mhz);
  std::size_t lowered = 0;
  for (std::size_t i = 0; i < resnet8().layers().size(); ++i) {
    if (resnet8().layers()[i].op == OpKind::kConv && lowered == 0) lowered = i;
  }
  options.layer_levels[lowered].frequency_mhz = 100;
  options.layer_levels[lowered].voltage_v = 0.5;
  const SimulationResult result = Simulation(config, table(), resnet8(), options).run();
  EXPECT_DOUBLE_EQ(result.layers[lowered].dvfs_switch_ns, 10000);
  double switched = 0;
  for (const LayerResult& layer : result.layers) switched += layer.dvfs_switch_ns;
  EXPECT_DOUBLE_EQ(switched, 20000);  // into the level, and back to nominal at the next executed layer
  EXPECT_GE(result.layers[lowered].time_ns, 10000);
}

TEST(DvfsSimulation, BothFidelitiesAgreeOnAScheduledRun) {
  const AcceleratorConfig config = config_named("eyeriss");
  const Workload workload = load_workload(test::source_dir() + "/workloads/ds_cnn.yaml");
  SimulationOptions options;
  options.layer_levels = all_at(config, workload, config.clock.frequency_mhz);
  for (std::size_t i = 0; i < options.layer_levels.size(); i += 2) {
    options.layer_levels[i].frequency_mhz = 150;
    options.layer_levels[i].voltage_v = 0.75;
    options.layer_levels[i].dram_bandwidth_gbps = config.dram.bandwidth_gbps / 2;
  }
  const SimulationResult tlm = Simulation(config, table(), workload, options).run();
  options.fidelity = Fidelity::kCycleAccurate;
  const SimulationResult cycle = Simulation(config, table(), workload, options).run();
  for (std::size_t i = 0; i < tlm.layers.size(); ++i) {
    EXPECT_EQ(tlm.layers[i].cycles, cycle.layers[i].cycles) << tlm.layers[i].name;
    EXPECT_DOUBLE_EQ(tlm.layers[i].time_ns, cycle.layers[i].time_ns) << tlm.layers[i].name;
    EXPECT_EQ(cycle.layers[i].output_mismatches, 0u) << tlm.layers[i].name;
  }
}

TEST(DvfsSimulation, RejectsLevelsOutsideTheDomains) {
  const AcceleratorConfig config = config_named("eyeriss");
  SimulationOptions options;
  options.layer_levels = all_at(config, resnet8(), 2 * config.clock.frequency_mhz);
  EXPECT_THROW(Simulation(config, table(), resnet8(), options), std::invalid_argument);
}

TEST(DvfsRun, IdealArradaScheduleSavesComputeEnergyOnAMemoryBoundEdgeTpu) {
  const AcceleratorConfig config = config_named("edge_tpu");
  const Workload workload = load_workload(test::source_dir() + "/workloads/mobilenet_v1.yaml");
  const SimulationResult baseline = simulate_race_to_idle(Chip(config, table()), workload);
  const DvfsOutcome ideal = run_dvfs(Chip(config, table()), workload, DvfsScheme::kIdeal, baseline);
  EXPECT_GT(ideal.compute_energy_saving_pct, 1.0);
  EXPECT_GT(ideal.energy_saving_pct, 1.0);
  EXPECT_EQ(ideal.scheduled.total.dvfs_switch_ns, 0.0);  // ideal: switching is free
  bool lowered = false;
  for (const LayerResult& layer : ideal.scheduled.layers) lowered |= layer.levels.frequency_mhz < 500;
  EXPECT_TRUE(lowered);
  const DvfsOutcome rti = run_dvfs(Chip(config, table()), workload, DvfsScheme::kRaceToIdle, baseline);
  EXPECT_DOUBLE_EQ(rti.energy_saving_pct, 0.0);
  EXPECT_DOUBLE_EQ(rti.latency_change_pct, 0.0);
}

// The promise of the grid, on the two workloads that ran latest before feedback kept it
// (HPC TPU: ResNet-18 +5.2 %, YOLOv4-tiny +4.3 %): every scheme ends within 0.5 % of race to idle.
TEST(DvfsRun, EverySchemeKeepsRaceToIdleLatency) {
  const AcceleratorConfig config = config_named("hpc_tpu");
  for (const char* name : {"resnet18", "yolov4_tiny"}) {
    const Workload workload = load_workload(test::source_dir() + "/workloads/" + name + ".yaml");
    const SimulationResult baseline = simulate_race_to_idle(Chip(config, table()), workload);
    for (const std::string& scheme : dvfs_scheme_names()) {
      const DvfsOutcome outcome = run_dvfs(Chip(config, table()), workload, parse_dvfs_scheme(scheme), baseline);
      EXPECT_TRUE(outcome.latency_kept) << name << " " << scheme;
      EXPECT_LE(outcome.latency_change_pct, 0.5) << name << " " << scheme;
      EXPECT_GE(outcome.energy_saving_pct, 0.0) << name << " " << scheme;
    }
  }
}

// A deadline 25 % beyond race to idle: the schedule ends by it and saves more than at iso-latency; a
// deadline race to idle cannot meet is refused.
TEST(DvfsRun, ADeadlineIsMetAndItsSlackSpent) {
  const AcceleratorConfig config = config_named("hpc_tpu");
  const Workload workload = load_workload(test::source_dir() + "/workloads/resnet18.yaml");
  const SimulationResult baseline = simulate_race_to_idle(Chip(config, table()), workload);
  const double deadline_ns = 1.25 * baseline.total.time_ns;
  for (DvfsScheme scheme : {DvfsScheme::kIdeal, DvfsScheme::kWithOverheadQuantised}) {
    const DvfsOutcome iso = run_dvfs(Chip(config, table()), workload, scheme, baseline);
    const DvfsOutcome relaxed = run_dvfs(Chip(config, table()), workload, scheme, baseline, deadline_ns);
    EXPECT_TRUE(relaxed.latency_kept);
    EXPECT_LE(relaxed.scheduled.total.time_ns, deadline_ns);
    EXPECT_GT(relaxed.energy_saving_pct, iso.energy_saving_pct + 5) << dvfs_scheme_name(scheme);
  }
  EXPECT_THROW(run_dvfs(Chip(config, table()), workload, DvfsScheme::kIdeal, baseline, 0.9 * baseline.total.time_ns),
               std::invalid_argument);
}

// The front holds race to idle (the fastest point) and no point on it is beaten on both axes.
TEST(DvfsPareto, TheFrontIsNotDominated) {
  const AcceleratorConfig config = config_named("hpc_tpu");
  const Workload workload = load_workload(test::source_dir() + "/workloads/resnet18.yaml");
  const SimulationResult baseline = simulate_race_to_idle(Chip(config, table()), workload);
  const std::vector<ParetoPoint> points = dvfs_pareto(Chip(config, table()), workload, baseline);
  ASSERT_EQ(points.size(), 1 + 3 * kParetoDeadlineFactors.size());
  EXPECT_TRUE(points.front().on_front);  // race to idle
  std::size_t on_front = 0;
  for (const ParetoPoint& p : points) {
    EXPECT_TRUE(p.latency_kept) << p.scheme << " " << p.deadline_ns;
    if (p.deadline_ns > 0) {
      EXPECT_LE(p.latency_ns, p.deadline_ns);
    }
    if (!p.on_front) continue;
    ++on_front;
    for (const ParetoPoint& q : points) {
      EXPECT_FALSE(q.latency_ns < p.latency_ns && q.energy_pj < p.energy_pj) << p.scheme << " " << p.deadline_ns;
    }
  }
  EXPECT_GE(on_front, 3u);
}

// The plot names each scheme in words, not only by its option name, and a quote in a workload's name
// cannot end the title's string early.
TEST(DvfsPareto, ThePlotNamesEverySchemeInWords) {
  const std::string script = pareto_gnuplot("net \"v2\" on hpc_tpu: energy against latency");
  EXPECT_NE(script.find("set title \"net \\\"v2\\\" on hpc_tpu: energy against latency\\n"), std::string::npos)
      << script;
  EXPECT_NE(script.find("set xlabel 'inference latency (ms)'"), std::string::npos);
  EXPECT_NE(script.find("set ylabel 'inference energy (mJ)'"), std::string::npos);
  for (const std::string& scheme : dvfs_scheme_names()) {
    EXPECT_GT(dvfs_scheme_legend(scheme).size(), scheme.size() + 10) << scheme;
    EXPECT_NE(script.find("title \"" + dvfs_scheme_legend(scheme) + "\""), std::string::npos) << scheme;
  }
}

}  // namespace
}  // namespace ergon
