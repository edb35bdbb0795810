// The STM32N6 phase benchmark's SoC model (docs/stm32n6.md): supply rails, the CPU phases' power terms and
// leave-one-model-out calibration.
#include <gtest/gtest.h>

#include <cmath>

#include "arch/accelerator_config.hpp"
#include "arch/config_keys.hpp"
#include "power/energy_table.hpp"
#include "sim/data_paths.hpp"
#include "studies/stm32n6/phase_bench.hpp"
#include "studies/stm32n6/phase_calibration.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

std::string stm32n6() {
  return test::source_dir() + "/configs/stm32n6.yaml";
}
EnergyTable table_of(const AcceleratorConfig& config) {
  return load_energy_table(energy_table_path(config));
}
const double kVoltageSquared = (0.8 / 0.9) * (0.8 / 0.9);  // Table III: 0.9 V -> 0.8 V

// The soc section is the study's own (studies/stm32n6/soc_config.hpp): the loader keeps it among the
// config's study sections, `config show` prints it, and a config without one has none.
TEST(Stm32PhaseBench, SocSectionIsKeptForTheStudy) {
  const AcceleratorConfig config = load_accelerator_config(stm32n6());
  ASSERT_NE(find_soc(config), nullptr);
  EXPECT_EQ(find_soc(config)->reference_point, "h-perf");
  ASSERT_EQ(find_soc(config)->operating_points.size(), 2u);
  EXPECT_EQ(find_soc(config)->point("l-perf").npu_mhz, 800);
  EXPECT_EQ(accelerator_config_values(config)["soc"]["reference_point"], "h-perf");

  const AcceleratorConfig eyeriss = load_accelerator_config(test::source_dir() + "/configs/eyeriss.yaml");
  EXPECT_EQ(find_soc(eyeriss), nullptr);
  EXPECT_TRUE(eyeriss.study_sections.empty());
  EXPECT_FALSE(accelerator_config_values(eyeriss).contains("soc"));
  EXPECT_THROW(simulate_npu(eyeriss, table_of(eyeriss), load_workload(test::source_dir() + "/workloads/ds_cnn.yaml"),
                            "h-perf", Fidelity::kTransactionLevel),
               std::invalid_argument);
}

// The internal RAM sits on VDDCORE: its simulated energy at L-Perf falls with the rail voltage squared
// (it stayed fixed when the RAM was priced at a constant memory voltage).
TEST(Stm32PhaseBench, RamEnergyScalesWithItsRailVoltage) {
  const AcceleratorConfig config = load_accelerator_config(stm32n6());
  const EnergyTable table = table_of(config);
  const Workload workload = load_workload(test::source_dir() + "/workloads/autoencoder_toyadmos.yaml");
  const NpuRun h = simulate_npu(config, table, workload, "h-perf", Fidelity::kTransactionLevel),
               l = simulate_npu(config, table, workload, "l-perf", Fidelity::kTransactionLevel);
  ASSERT_GT(h.ram_energy_uj, 0);
  EXPECT_NEAR(l.ram_energy_uj / h.ram_energy_uj, kVoltageSquared, 1e-9);
  EXPECT_NEAR(l.time_us / h.time_us, 1.25, 0.01);  // NPU and RAM clocks both x0.8

  // On a fixed rail the RAM's energy does not follow VCORE.
  const AcceleratorConfig fixed =
      load_accelerator_config(stm32n6(), {"soc.rails.vddcore.blocks=[cpu, npu]",
                                          "soc.rails.vddram={voltage_v: 0.9, measured: true, blocks: [internal_ram]}"});
  const NpuRun fh = simulate_npu(fixed, table, workload, "h-perf", Fidelity::kTransactionLevel),
               fl = simulate_npu(fixed, table, workload, "l-perf", Fidelity::kTransactionLevel);
  EXPECT_NEAR(fl.ram_energy_uj / fh.ram_energy_uj, 1.0, 1e-9);
  EXPECT_NEAR(fh.ram_energy_uj, h.ram_energy_uj, 1e-9 * h.ram_energy_uj);

  // Off the measured rail, the RAM's energy leaves the inference phase (the shunt does not see it).
  const AcceleratorConfig unmeasured = load_accelerator_config(
      stm32n6(), {"soc.rails.vddcore.blocks=[cpu, npu]",
                  "soc.rails.vddram={voltage_v: 0.9, measured: false, blocks: [internal_ram]}"});
  const PhaseBreakdown seen = phase_breakdown(config, table, workload_shape(config, workload), h);
  const PhaseBreakdown unseen = phase_breakdown(unmeasured, table, workload_shape(unmeasured, workload), h);
  EXPECT_NEAR(seen.npu_simulated_energy_uj - unseen.npu_simulated_energy_uj, h.ram_energy_uj, 1e-9);
}

// CPU phases: the CPU's own dynamic power follows V^2 f_CPU (f_CPU is the same at both points), the idle NPU
// clock tree V^2 f_NPU, leakage V exp(dV / slope); the phase power ratio follows from that mix.
TEST(Stm32PhaseBench, CpuPhasePowerFollowsItsTerms) {
  const AcceleratorConfig config = load_accelerator_config(stm32n6());
  const EnergyTable table = table_of(config);
  const CpuPhasePower h = cpu_phase_power(soc_of(config), table, "h-perf");
  const CpuPhasePower l = cpu_phase_power(soc_of(config), table, "l-perf");
  EXPECT_NEAR(h.total_mw(), soc_of(config).cpu_power_mw, 1e-9);  // the fitted total at the reference point
  ASSERT_GT(h.npu_clock_mw, 0);
  ASSERT_GT(h.cpu_dynamic_mw, 0);
  EXPECT_NEAR(l.cpu_dynamic_mw / h.cpu_dynamic_mw, kVoltageSquared, 1e-12);
  EXPECT_NEAR(l.npu_clock_mw / h.npu_clock_mw, kVoltageSquared * 800 / 1000, 1e-12);
  EXPECT_LT(l.total_mw() / h.total_mw(), kVoltageSquared - 0.01);  // not just V^2

  // Without the idle NPU clock and leakage the model falls back to V^2 exactly.
  const AcceleratorConfig plain = load_accelerator_config(stm32n6(), {"soc.cpu.npu_clock_running=false"});
  EXPECT_NEAR(cpu_phase_power(soc_of(plain), table, "l-perf").total_mw() / soc_of(plain).cpu_power_mw, kVoltageSquared,
              1e-12);

  // Leakage: V x I_leak(V), I_leak falling by e per dibl_slope_mv (100 mV here).
  const AcceleratorConfig leaky = load_accelerator_config(stm32n6(), {"soc.static={power_mw: 10, dibl_slope_mv: 100}"});
  EXPECT_NEAR(soc_static_power_mw(soc_of(leaky), "h-perf"), 10, 1e-12);
  EXPECT_NEAR(soc_static_power_mw(soc_of(leaky), "l-perf"), 10 * 0.8 / 0.9 * std::exp(-1.0), 1e-12);
  EXPECT_NEAR(cpu_phase_power(soc_of(leaky), table, "h-perf").total_mw(), soc_of(leaky).cpu_power_mw, 1e-9);
}

// The CPU runs the NPU's runtime through the inference: its own dynamic power at the point (V^2 f_CPU,
// not f_NPU) is added over the inference's latency, so it weighs more where the NPU draws less.
TEST(Stm32PhaseBench, CpuPowerIsDrawnThroughTheInference) {
  const AcceleratorConfig config = load_accelerator_config(stm32n6());
  const AcceleratorConfig idle_cpu = load_accelerator_config(stm32n6(), {"soc.cpu.runs_during_inference=false"});
  const EnergyTable table = table_of(config);
  const Workload workload = load_workload(test::source_dir() + "/workloads/ds_cnn.yaml");
  for (const std::string point : {"h-perf", "l-perf"}) {
    const NpuRun run = simulate_npu(config, table, workload, point, Fidelity::kTransactionLevel);
    const PhaseBreakdown with = phase_breakdown(config, table, workload_shape(config, workload), run);
    const PhaseBreakdown without = phase_breakdown(idle_cpu, table, workload_shape(idle_cpu, workload), run);
    const double cpu_mw = cpu_phase_power(soc_of(config), table, point).cpu_dynamic_mw;
    ASSERT_GT(cpu_mw, 0);
    EXPECT_EQ(with.inference.latency_us, without.inference.latency_us);
    EXPECT_NEAR(with.inference.energy_uj - without.inference.energy_uj, cpu_mw * with.inference.latency_us * 1e-3,
                1e-9 * with.inference.energy_uj);
  }
}

// Synthetic measurements on synthetic runs: the held-out model never enters the fit.
TEST(Stm32PhaseBench, LeaveOneModelOutExcludesTheHeldOutModel) {
  // (No idle NPU clock: the synthetic CPU power need not hold the clock tree of the synthetic scale; nor
  // the CPU in the inference, whose synthetic energies are smaller than the CPU phases' power would draw.)
  const AcceleratorConfig config =
      load_accelerator_config(stm32n6(), {"soc.cpu.npu_clock_running=false", "soc.cpu.runs_during_inference=false"});
  const EnergyTable table = table_of(config);
  std::map<std::string, ModelRuns> runs;
  PhaseMeasurements measured;
  for (int i = 0; i < 4; ++i) {
    const std::string model = "m" + std::to_string(i);
    ModelRuns r;
    r.shape = {1000.0 * (i + 1), 10.0 * (i + 1) + i * i};
    r.runs["h-perf"] = NpuRun{"h-perf", static_cast<std::size_t>(5 + 3 * i), 50.0 + 40 * i, 20.0 + 15 * i, 5.0 + 9 * i};
    runs[model] = r;
    MeasuredPhases m;
    m.pre = {130 + 2.0 * i, 1000 + 30.0 * (i + 1)};
    m.inference = {0.3 * (25 + 24.0 * i) * (1 + 0.02 * i), 80 + 50.0 * i + 3 * i * i};  // scale ~0.3
    m.post = {40, 300 + 5.0 * i + 2.0 * i * i};
    measured[model]["h-perf"] = m;
  }
  const SocCalibration all = calibrate_soc(config, table, measured, runs);
  const SocCalibration without = calibrate_soc(config, table, measured, runs, "m3");
  EXPECT_EQ(all.models.size(), 4u);
  EXPECT_EQ(without.models, (std::vector<std::string>{"m0", "m1", "m2"}));
  EXPECT_NE(all.fitted.npu_layer_overhead_cycles, without.fitted.npu_layer_overhead_cycles);
  // Changing the held-out model's measurements changes nothing in its LOMO fit, but the full fit.
  PhaseMeasurements changed = measured;
  changed["m3"]["h-perf"].inference.latency_us *= 2;
  EXPECT_EQ(calibrate_soc(config, table, changed, runs, "m3").fitted.npu_layer_overhead_cycles,
            without.fitted.npu_layer_overhead_cycles);
  EXPECT_NE(calibrate_soc(config, table, changed, runs).fitted.npu_layer_overhead_cycles,
            all.fitted.npu_layer_overhead_cycles);
}

TEST(Stm32PhaseBench, RailErrorsNameTheBlock) {
  const auto message = [](const std::vector<std::string>& overrides) {
    try {
      load_accelerator_config(stm32n6(), overrides);
    } catch (const std::exception& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({"soc.rails.vddio.blocks=[external_flash, serial, cpu]"}).find("block 'cpu' is already on rail"),
            std::string::npos);
  EXPECT_NE(message({"soc.rails.vddio.measured=true"}).find("has no energy model"), std::string::npos);
  EXPECT_NE(message({"soc.rails.vddcore.blocks=[cpu, npu]"}).find("put block 'internal_ram' on a rail"),
            std::string::npos);
  EXPECT_NE(message({"soc.rails.vddcore.voltage=high"}).find("soc.rails.vddcore.voltage"), std::string::npos);
  // The fitted core power must hold its static part.
  const AcceleratorConfig config = load_accelerator_config(stm32n6(), {"soc.static.power_mw=500"});
  EXPECT_THROW(cpu_phase_power(soc_of(config), table_of(config), "l-perf"), std::invalid_argument);
}

}  // namespace
}  // namespace ergon
