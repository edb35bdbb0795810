// Each dataflow's one step timing, and the arrays every dataflow brings under its name.
#include "dataflows/row_stationary/step_timing.hpp"

#include <gtest/gtest.h>

#include "arch/glb/glb_ports.hpp"
#include "arch/pe_array/pe_arrays.hpp"
#include "dataflows/registry.hpp"
#include "dataflows/systolic/systolic_step_timing.hpp"

namespace ergon {
namespace {

// pe_array.impl names a dataflow; the simulation builds that dataflow's arrays by the same name.
TEST(StepTiming, EveryDataflowRegistersItsArrays) {
  EXPECT_EQ(pe_array_impl_names(), dataflow_names());
  for (const std::string& name : dataflow_names()) {
    const PeArrayImpl* arrays = Registry<PeArrayImpl>::instance().find(name);
    ASSERT_NE(arrays, nullptr) << name;
    EXPECT_NE(arrays->make_array, nullptr) << name;
    EXPECT_NE(arrays->make_cycle_array, nullptr) << name;
  }
}

AcceleratorConfig systolic_config() {
  AcceleratorConfig config;
  config.pe_array.impl = "systolic";
  config.pe_array.rows = 8;
  config.pe_array.cols = 4;
  config.pe_array.word_bits = 8;
  config.glb.banks = 2;
  config.glb.bank_width_bits = 32;  // 4 words a port, 8 over both banks
  return config;
}

// A fold: the shift-in, the T streamed steps and the skew of rows + cols - 2, unless the bank ports
// carrying its deposits and outgoing outputs take longer.
TEST(StepTiming, SystolicFoldIsTheArrayOrItsPortsWhicheverIsLonger) {
  const SystolicTiming timing = systolic_timing(systolic_config());
  ASSERT_EQ(timing.glb_read_words, 8u);
  ASSERT_EQ(timing.glb_write_words, 8u);
  StepTraffic fold;
  fold.fill_cycles = 8;
  fold.compute_cycles = 100;
  EXPECT_EQ(systolic_array_cycles(fold, timing), 8u + 100u + 8u + 4u - 2u);
  EXPECT_EQ(systolic_step_cycles(fold, timing), 118u);
  fold.ofmap_dram_words = 8 * 200 + 1;  // 201 read-port cycles
  EXPECT_EQ(systolic_step_cycles(fold, timing), 201u);
  EXPECT_EQ(glb_access_cycles(fold.ofmap_dram_words, 0, 8, 8), 201u);
}

// The row-stationary timing reads the buses, ports and RF from the config, and a step's whole cycles round
// its preload and its stream up separately.
TEST(StepTiming, RowStationaryStepRoundsPreloadAndStreamApart) {
  AcceleratorConfig config;
  config.noc.filter_bus_words = 3;
  config.noc.ifmap_bus_words = 3;
  const ArrayTiming timing = array_timing(config);
  EXPECT_EQ(timing.filter_bus_words, 3);
  EXPECT_EQ(timing.ifmap_rf_words, config.pe_array.rf.ifmap_entries);
  StepTraffic step;
  step.filter_bus_words = 4;  // preload 4/3 cycles
  step.compute_cycles = 10;   // no ifmap stream: the whole stream is the MACs
  const StepTiming exact = step_timing(step_load(step), timing);
  EXPECT_DOUBLE_EQ(exact.preload_cycles, 4.0 / 3.0);
  EXPECT_DOUBLE_EQ(exact.stream_cycles, 10.0);
  EXPECT_EQ(step_cycles(step, timing), 2u + 10u);
}

}  // namespace
}  // namespace ergon
