// The run pipeline (sim/run_pipeline.hpp): its stages compose to what Simulation gives, each stage does only
// its own part, and the write stage sees the priced result.
#include "sim/run_pipeline.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "common/input_error.hpp"
#include "sim/run_report.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

const Chip& eyeriss() {
  static const Chip chip(load_accelerator_config(test::source_dir() + "/configs/eyeriss.yaml"));
  return chip;
}

const Workload& ds_cnn() {
  static const Workload loaded = load_workload(test::source_dir() + "/workloads/ds_cnn.yaml");
  return loaded;
}

std::string report_of(const SimulationResult& result) {
  return run_json(result, eyeriss().config(), ds_cnn(), "tlm").dump(2) + layers_csv(result);
}

// The stages called one by one give, byte for byte, the reports of the pipeline and of a Simulation.
TEST(RunPipeline, StagesComposeToTheSimulation) {
  const SimulationOptions options;
  SimulationResult staged = simulate_run(eyeriss(), ds_cnn(), plan_run(eyeriss(), ds_cnn(), options), options);
  price_run(eyeriss(), staged);
  const SimulationResult piped = run_pipeline(eyeriss(), ds_cnn(), options);
  const SimulationResult simulated =
      Simulation(eyeriss().config(), eyeriss().table(), ds_cnn(), SimulationOptions{}).run();
  EXPECT_EQ(report_of(staged), report_of(piped));
  EXPECT_EQ(report_of(simulated), report_of(piped));
}

// Plan maps every layer and simulates nothing; simulate measures and prices nothing; price fills each
// executed layer's energy and adds the layers up into the total.
TEST(RunPipeline, EachStageDoesItsOwnPart) {
  const SimulationOptions options;
  RunPlan plan = plan_run(eyeriss(), ds_cnn(), options);
  ASSERT_EQ(plan.layers.size(), ds_cnn().layers().size());
  ASSERT_FALSE(plan.jobs.empty());
  for (const LayerJob& job : plan.jobs) {
    EXPECT_TRUE(plan.layers[job.layer_index].mapping.has_value()) << plan.layers[job.layer_index].name;
    EXPECT_EQ(plan.layers[job.layer_index].cycles, 0u);
  }
  SimulationResult result = simulate_run(eyeriss(), ds_cnn(), std::move(plan), options);
  double measured_cycles = 0;
  for (const LayerResult& layer : result.layers) {
    EXPECT_EQ(layer.energy.total_pj(), 0.0) << layer.name;
    measured_cycles += static_cast<double>(layer.cycles);
  }
  EXPECT_GT(measured_cycles, 0);
  price_run(eyeriss(), result);
  double layers_pj = 0;
  for (const LayerResult& layer : result.layers) {
    EXPECT_EQ(layer.executed, layer.energy.total_pj() > 0) << layer.name;
    layers_pj += layer.energy.total_pj();
  }
  EXPECT_NEAR(result.total.energy.total_pj(), layers_pj, 1e-9 * layers_pj);
  EXPECT_EQ(static_cast<double>(result.total.cycles), measured_cycles);
}

TEST(RunPipeline, WriteStageSeesThePricedResult) {
  std::string written;
  const SimulationResult result = run_pipeline(eyeriss(), ds_cnn(), SimulationOptions{},
                                               [&](const SimulationResult& priced) { written = report_of(priced); });
  ASSERT_GT(result.total.energy.total_pj(), 0);
  EXPECT_EQ(written, report_of(result));
}

// The chip checks its table once, when it is made: a table without the config's word width is refused
// before any layer is planned.
TEST(RunPipeline, ChipRefusesATableWithoutTheWordWidth) {
  const AcceleratorConfig eight_bit =
      load_accelerator_config(test::source_dir() + "/configs/eyeriss.yaml", {"pe_array.word_bits=8"});
  EXPECT_NO_THROW(Chip(eight_bit, eyeriss().table()));
  EnergyTable sixteen_bit_only = eyeriss().table();
  auto& widths = sixteen_bit_only.word_widths;
  widths.erase(
      std::remove_if(widths.begin(), widths.end(), [](const WordWidthEnergies& width) { return width.word_bits == 8; }),
      widths.end());
  ASSERT_FALSE(sixteen_bit_only.word_widths.empty());
  EXPECT_THROW(Chip(eight_bit, sixteen_bit_only), InputError);
}

}  // namespace
}  // namespace ergon
