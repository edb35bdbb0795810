// Speed of the simulator (Google Benchmark). Run with scripts/bench.sh; not part of the test suite.
//  - ResNet-50 on configs/eyeriss.yaml at transaction level: wall time per run (target: under 1 s).
//  - ResNet-50 on a 32x32 output-stationary systolic array at transaction level.
//  - The cycle-accurate PE array on AlexNet's conv layers: simulated PE-cycles per second
//    (PEs x simulated cycles / wall second; target: above 100 million on one core).
#include <benchmark/benchmark.h>

#include "sim/simulation.hpp"

namespace ergon {
namespace {

const std::string kSource = ERGON_SOURCE_DIR;

struct Inputs {
  AcceleratorConfig config = load_accelerator_config(kSource + "/configs/eyeriss.yaml");
  EnergyTable table = load_energy_table(kSource + "/power/tables/cnnergy_65nm.yaml");
};

const Inputs& inputs() {
  static const Inputs loaded;
  return loaded;
}

void run_workload(benchmark::State& state, const std::string& workload_file, Fidelity fidelity,
                  const AcceleratorConfig& config = inputs().config) {
  const Workload workload = load_workload(kSource + "/workloads/" + workload_file);
  SimulationOptions options;
  options.fidelity = fidelity;
  options.check_outputs = false;  // time the simulation, not the reference computation
  std::uint64_t cycles = 0;
  std::uint64_t macs = 0;
  for (auto _ : state) {
    const SimulationResult result = Simulation(config, inputs().table, workload, options).run();
    cycles = result.total.cycles;
    macs = result.total.macs;
    benchmark::DoNotOptimize(cycles);
  }
  const double pes = static_cast<double>(config.pe_array.rows * config.pe_array.cols);
  state.counters["simulated_cycles"] = static_cast<double>(cycles);
  state.counters["cycles_per_second"] =
      benchmark::Counter(static_cast<double>(cycles), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["macs_per_second"] =
      benchmark::Counter(static_cast<double>(macs), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["pe_cycles_per_second"] =
      benchmark::Counter(static_cast<double>(cycles) * pes, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_ResNet50_TransactionLevel(benchmark::State& state) {
  run_workload(state, "resnet50.yaml", Fidelity::kTransactionLevel);
}
BENCHMARK(BM_ResNet50_TransactionLevel)->Unit(benchmark::kMillisecond);

// Issue 4's reference point: SCALE-Sim v2 takes 690 s and 9.2 GB for this.
void BM_ResNet50_Systolic32x32_OutputStationary(benchmark::State& state) {
  const AcceleratorConfig config =
      load_accelerator_config(kSource + "/configs/edge_tpu.yaml", {"pe_array.rows=32", "pe_array.cols=32"});
  run_workload(state, "resnet50.yaml", Fidelity::kTransactionLevel, config);
}
BENCHMARK(BM_ResNet50_Systolic32x32_OutputStationary)->Unit(benchmark::kMillisecond);

void BM_AlexNet_TransactionLevel(benchmark::State& state) {
  run_workload(state, "alexnet.yaml", Fidelity::kTransactionLevel);
}
BENCHMARK(BM_AlexNet_TransactionLevel)->Unit(benchmark::kMillisecond);

void BM_AlexNet_CycleAccurate(benchmark::State& state) {
  run_workload(state, "alexnet.yaml", Fidelity::kCycleAccurate);
}
BENCHMARK(BM_AlexNet_CycleAccurate)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace ergon

BENCHMARK_MAIN();
