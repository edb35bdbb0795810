// The action catalogue (common/action_catalogue.hpp) and the per-tensor counts built on it: every action
// is declared completely, registered by the modules, priced by the shipped energy table and listed in
// report.json and layers.csv; and on both fidelities and both dataflows every action that splits by tensor
// has shares that add up to its total, with each tensor of every level moving data.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "arch/components.hpp"
#include "common/action_catalogue.hpp"
#include "sim/run_report.hpp"
#include "sim/simulation.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

const EnergyTable& shipped_table() {
  static const EnergyTable table = load_energy_table(test::source_dir() + "/power/tables/cnnergy_65nm.yaml");
  return table;
}

const CounterSpec* registered(const std::vector<CounterSpec>& specs, const std::string& name) {
  for (const CounterSpec& spec : specs) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

TEST(ActionCatalogue, EveryActionIsDeclaredCompletelyAndRegistered) {
  const std::set<std::string_view> five_keys = {"mac_pj", "rf_pj", "inter_pe_pj", "glb_pj", "dram_pj"};
  const std::vector<CounterSpec> specs = every_module_counter_spec();
  std::set<std::string_view> names, columns;
  for (const ActionSpec& action : action_catalogue()) {
    SCOPED_TRACE(std::string(action.name));
    EXPECT_EQ(&action_spec(action.id), &action);
    EXPECT_TRUE(names.insert(action.name).second) << "a name declared twice";
    EXPECT_TRUE(columns.insert(action.column).second) << "a column declared twice";
    EXPECT_FALSE(action.component().empty());
    EXPECT_FALSE(action.action().empty());
    EXPECT_FALSE(action.unit.empty());
    EXPECT_FALSE(action.description.empty());
    if (action.energy_action) {
      EXPECT_EQ(five_keys.count(action.five_key), 1U) << "no five-key rule";
      EXPECT_FALSE(action.ert_actions.empty()) << "no ERT rule";
      const ActionEnergy* price = shipped_table().at_word_bits(16).find(action.name);
      EXPECT_NE(price, nullptr) << "the shipped energy table does not price it";
    }
    const CounterSpec* counter = registered(specs, std::string(action.name));
    ASSERT_NE(counter, nullptr) << "no module registers it";
    EXPECT_EQ(counter->column, action.column);
    EXPECT_EQ(counter->unit, action.unit);
    EXPECT_EQ(counter->energy_action, action.energy_action);
    if (action.tensor != TensorOf::kSplit) continue;
    for (Tensor tensor : kAllTensors) {
      const CounterSpec share = tensor_counter_spec(action.id, tensor);
      const CounterSpec* found = registered(specs, share.name);
      ASSERT_NE(found, nullptr) << "no module registers " << share.name;
      EXPECT_EQ(found->column, share.column);
      EXPECT_EQ(found->tensor, tensor_name(tensor));
      EXPECT_FALSE(found->energy_action) << "a share is a statistic; its total is priced";
    }
  }
  EXPECT_EQ(action_catalogue().size(), kActionCount);
}

// docs/energy.md's counter table names every action and its column.
TEST(ActionCatalogue, EnergyDocsListEveryAction) {
  std::ifstream file(test::source_dir() + "/docs/energy.md");
  std::stringstream text;
  text << file.rdbuf();
  const std::string docs = text.str();
  ASSERT_FALSE(docs.empty());
  for (const ActionSpec& action : action_catalogue()) {
    EXPECT_NE(docs.find("`" + std::string(action.name) + "`"), std::string::npos) << action.name;
    EXPECT_NE(docs.find("`" + std::string(action.column) + "`"), std::string::npos) << action.column;
  }
}

// Three convolutions (one a residual add's operand), a pooling and a dense layer: weights, inputs and
// outputs all move at every level, and outputs of the add are element-wise.
std::string small_network() {
  const auto path = test::unique_temp_path("ergon_tensor_counts.yaml");
  std::ofstream(path) << "name: tensor_counts\nsource: test\nlayers:\n"
                         "  - {name: image, op: input, shape: [3, 12, 12]}\n"
                         "  - {name: conv1, op: conv, inputs: [image], filters: 8, kernel: 3, padding: same}\n"
                         "  - {name: conv2, op: conv, inputs: [conv1], filters: 8, kernel: 3, padding: same}\n"
                         "  - {name: add, op: add, inputs: [conv1, conv2]}\n"
                         "  - {name: pool, op: maxpool, inputs: [add], kernel: 2, stride: 2}\n"
                         "  - {name: fc, op: fc, inputs: [pool], outputs: 10}\n";
  return path.string();
}

struct TensorRun {
  const char* config;
  Fidelity fidelity;
};

class TensorCounts : public ::testing::TestWithParam<TensorRun> {};

// Every action that splits by tensor: its shares add up to its total, in the layer's counters and in its
// report.json `tensors` object (which lists every action of a tensor by level).
void expect_shares_add_up(const LayerResult& layer, const nlohmann::ordered_json& json) {
  SCOPED_TRACE(layer.name);
  const nlohmann::ordered_json& tensors = json.at("tensors");
  for (const ActionSpec& action : action_catalogue()) {
    if (action.tensor == TensorOf::kNone) continue;
    const std::string level(action.component()), column(action.column);
    std::uint64_t listed = 0;
    for (Tensor tensor : kAllTensors) {
      const nlohmann::ordered_json& of_tensor = tensors.at(level).at(std::string(tensor_name(tensor)));
      if (of_tensor.contains(column)) listed += of_tensor.at(column).get<std::uint64_t>();
    }
    EXPECT_EQ(listed, json.at(column).get<std::uint64_t>()) << action.name << " in report.json";
    if (action.tensor != TensorOf::kSplit) continue;
    std::uint64_t shares = 0;
    for (Tensor tensor : kAllTensors) shares += layer.count(tensor_counter_spec(action.id, tensor).name);
    EXPECT_EQ(shares, layer.count(std::string(action.name))) << action.name;
  }
}

TEST_P(TensorCounts, SharesAddUpToEachLevelsTotals) {
  const TensorRun run = GetParam();
  const AcceleratorConfig config = load_accelerator_config(test::source_dir() + "/configs/" + run.config, {});
  SimulationOptions options;
  options.fidelity = run.fidelity;
  const Workload workload = load_workload(small_network());
  const SimulationResult result = Simulation(config, shipped_table(), workload, options).run();
  const nlohmann::ordered_json report = run_json(result, config, workload, fidelity_name(run.fidelity));
  for (std::size_t i = 0; i < result.layers.size(); ++i) {
    if (result.layers[i].executed) expect_shares_add_up(result.layers[i], report.at("layers").at(i));
  }
  expect_shares_add_up(result.total, report.at("total"));
  // Every tensor moves at every level of the memory hierarchy that splits by tensor.
  for (Action action : {Action::kGlbRead, Action::kGlbWrite, Action::kDramRead}) {
    for (Tensor tensor : {Tensor::kWeights, Tensor::kInputs}) {
      EXPECT_GT(result.total.count(tensor_counter_spec(action, tensor).name), 0U)
          << action_spec(action).name << " " << tensor_name(tensor);
    }
  }
  EXPECT_GT(result.total.count(tensor_counter_spec(Action::kDramWrite, Tensor::kOutputs).name), 0U);
  EXPECT_GT(result.total.count(tensor_counter_spec(Action::kGlbWrite, Tensor::kOutputs).name), 0U);
  // layers.csv names every action's column once, and every share's column after the others.
  const std::string csv = layers_csv(result);
  const std::string header = csv.substr(0, csv.find('\n'));
  for (const ActionSpec& action : action_catalogue()) {
    EXPECT_NE(("," + header + ",").find("," + std::string(action.column) + ","), std::string::npos) << action.name;
    if (action.tensor != TensorOf::kSplit) continue;
    for (Tensor tensor : kAllTensors) {
      const std::string column = tensor_counter_spec(action.id, tensor).column;
      EXPECT_GT(header.find("," + column), header.find(",total_pj")) << column;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(BothFidelitiesAndDataflows, TensorCounts,
                         ::testing::Values(TensorRun{"eyeriss.yaml", Fidelity::kTransactionLevel},
                                           TensorRun{"eyeriss.yaml", Fidelity::kCycleAccurate},
                                           TensorRun{"edge_tpu.yaml", Fidelity::kTransactionLevel},
                                           TensorRun{"edge_tpu.yaml", Fidelity::kCycleAccurate}),
                         [](const ::testing::TestParamInfo<TensorRun>& param) {
                           return std::string(param.param.config[0] == 'e' && param.param.config[1] == 'y'
                                                  ? "RowStationary"
                                                  : "Systolic") +
                                  (param.param.fidelity == Fidelity::kCycleAccurate ? "Cycle" : "TransactionLevel");
                         });

}  // namespace
}  // namespace ergon
