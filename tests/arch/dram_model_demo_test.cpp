// Adding a DRAM model with statistics is its own file plus a build line (docs/architecture.md, "Adding a
// DRAM model with statistics"). This binary registers `dram.impl: demo_counting`, a fixed-rate DRAM that
// counts the bytes it moved as a statistic of its own, and follows that statistic into the counter list
// and report.json, none of which it edits.
#include <gtest/gtest.h>
#include <tlm_utils/simple_target_socket.h>

#include "arch/components.hpp"
#include "arch/dram/request_queue.hpp"
#include "sim/run_report.hpp"
#include "sim/simulation.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

// One bus at the config's bandwidth, no queue limit, no latency: just enough to move the layers' data.
class DemoCountingDram : public IDram {
 public:
  DemoCountingDram(sc_core::sc_module_name name, const DramConfig& config)
      : IDram(name), socket_("socket"), picoseconds_per_byte_(1e3 / config.bandwidth_gbps) {
    socket_.register_b_transport(this, &DemoCountingDram::b_transport);
    counters_.statistic_specs = statistics();
    counters_.statistics.assign(1, 0);
  }
  static std::vector<CounterSpec> statistics() {
    return {{"dram.demo_byte", "bytes", "dram_demo_bytes", "bytes the demo DRAM moved", false}};
  }
  tlm::tlm_target_socket<>& target_socket() override { return socket_; }
  const DramCounters& counters() const override { return counters_; }
  void change_bandwidth(double bandwidth_gbps, const sc_core::sc_time& /*switch_time*/) override {
    picoseconds_per_byte_ = 1e3 / bandwidth_gbps;
  }

 private:
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
    const std::uint64_t bytes = payload.get_data_length();
    const sc_core::sc_time start = std::max(sc_core::sc_time_stamp() + delay, bus_free_at_);
    const auto transfer_ps = static_cast<std::uint64_t>(static_cast<double>(bytes) * picoseconds_per_byte_) + 1;
    bus_free_at_ = start + sc_core::sc_time(static_cast<double>(transfer_ps), sc_core::SC_PS);
    counters_.busy_ps += transfer_ps;
    counters_.statistics[0] += bytes;  // counted here, apart from count_request's dram.read/dram.write
    count_request(payload, counters_);
    delay = bus_free_at_ - sc_core::sc_time_stamp();
    payload.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  tlm_utils::simple_target_socket<DemoCountingDram> socket_;
  double picoseconds_per_byte_;
  sc_core::sc_time bus_free_at_ = sc_core::SC_ZERO_TIME;
  DramCounters counters_;
};

}  // namespace
}  // namespace ergon

ERGON_REGISTER(ergon::DramImpl, "demo_counting",
               ergon::DramImpl{[](const ergon::DramConfig& config) -> std::unique_ptr<ergon::IDram> {
                                 return std::make_unique<ergon::DemoCountingDram>("dram", config);
                               },
                               ergon::DemoCountingDram::statistics(), false})

namespace ergon {
namespace {

AcceleratorConfig demo_config() {
  return load_accelerator_config(test::source_dir() + "/configs/eyeriss.yaml", {"dram.impl=demo_counting"});
}

TEST(DramModelDemo, ItsStatisticIsAListedCounter) {
  const std::vector<CounterSpec> specs = module_counter_specs(demo_config());
  const auto found =
      std::find_if(specs.begin(), specs.end(), [](const CounterSpec& spec) { return spec.name == "dram.demo_byte"; });
  ASSERT_NE(found, specs.end());
  EXPECT_EQ(found->column, "dram_demo_bytes");
  EXPECT_FALSE(found->energy_action);
}

// Each layer's report.json entry carries the statistic, and it agrees with the bytes the DRAM counters saw.
TEST(DramModelDemo, ItsStatisticReachesReportJson) {
  const AcceleratorConfig config = demo_config();
  const Workload workload = load_workload(test::source_dir() + "/workloads/resnet8.yaml");
  const EnergyTable table = load_energy_table(test::source_dir() + "/power/tables/cnnergy_65nm.yaml");
  const SimulationResult result = Simulation(config, table, workload, {}).run();
  const nlohmann::ordered_json report = run_json(result, config, workload, "tlm");
  std::uint64_t moved_bytes = 0;
  for (std::size_t i = 0; i < result.layers.size(); ++i) {
    const LayerResult& layer = result.layers[i];
    if (!layer.executed) continue;
    const nlohmann::ordered_json& entry = report["layers"][i];
    ASSERT_TRUE(entry.contains("dram_demo_bytes")) << layer.name;
    EXPECT_EQ(entry["dram_demo_bytes"].get<std::uint64_t>(), layer.dram_bytes()) << layer.name;
    moved_bytes += entry["dram_demo_bytes"].get<std::uint64_t>();
  }
  EXPECT_GT(moved_bytes, 0u);
  EXPECT_EQ(report["total"]["dram_demo_bytes"].get<std::uint64_t>(), moved_bytes);
  EXPECT_FALSE(result.total.dram_energy.has_value());  // it reports no commands: priced per bit
}

}  // namespace
}  // namespace ergon
