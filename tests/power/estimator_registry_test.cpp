// The estimator registry: every estimator is found by its name, declares well-formed options, and adds
// comparison sources only where it applies.
#include <gtest/gtest.h>

#include <cctype>

#include "power/estimators/registry.hpp"
#include "sim/data_paths.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

ChipInputs chip(const std::string& config_file) {
  AcceleratorConfig config = load_accelerator_config(test::source_dir() + "/configs/" + config_file);
  EnergyTable table = load_energy_table(energy_table_path(config));
  return {std::move(config), std::move(table)};
}

TEST(EstimatorRegistry, EveryRegistrationIsFoundByItsName) {
  const auto& items = Registry<EstimatorPlugin>::instance().items();
  ASSERT_FALSE(items.empty());
  ASSERT_EQ(estimators().size(), items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    const IEstimator* estimator = estimators()[i];
    EXPECT_EQ(items[i].name, estimator->name());  // registered under the name its subcommand takes
    EXPECT_EQ(find_estimator(estimator->name()), estimator);
    std::string shouted = estimator->name();
    for (char& c : shouted) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    EXPECT_EQ(find_estimator(shouted), estimator);  // names are matched case-insensitively
    EXPECT_FALSE(estimator->description().empty());
    for (const EstimatorOption& option : estimator->options()) {
      EXPECT_FALSE(option.name.empty());
      EXPECT_FALSE(option.flag && option.required) << option.name;
      if (!option.choices.empty() && !option.default_value.empty()) {
        EXPECT_NE(std::find(option.choices.begin(), option.choices.end(), option.default_value), option.choices.end())
            << option.name;
      }
    }
  }
  EXPECT_EQ(find_estimator("nonesuch"), nullptr);
}

TEST(EstimatorRegistry, ComparisonSourcesOnlyWhereTheEstimatorApplies) {
  const Workload alexnet = load_workload(test::source_dir() + "/workloads/alexnet.yaml");
  const std::vector<ChipInputs> systolic_only = {chip("edge_tpu.yaml")};
  const std::vector<ChipInputs> both = {chip("edge_tpu.yaml"), chip("eyeriss.yaml")};
  const std::string data = test::source_dir();
  // CNNergy models a row-stationary array: none without one, the eyeriss one otherwise.
  EXPECT_TRUE(find_estimator("cnnergy")->comparison_sources({alexnet, systolic_only, {}, data}).empty());
  const auto cnnergy = find_estimator("cnnergy")->comparison_sources({alexnet, both, {}, data});
  ASSERT_EQ(cnnergy.size(), 1u);
  EXPECT_NE(cnnergy[0].detail.find("eyeriss"), std::string::npos) << cnnergy[0].detail;
  // Blackthorn needs fitted models.
  EXPECT_TRUE(find_estimator("blackthorn")->comparison_sources({alexnet, both, {}, data}).empty());
  // Lahmer's two boards; the roofline of each chip, bounding the simulated compute.
  EXPECT_EQ(find_estimator("lahmer")->comparison_sources({alexnet, both, {}, data}).size(), 2u);
  const auto roofs = find_estimator("roofline")->comparison_sources({alexnet, both, {}, data});
  ASSERT_EQ(roofs.size(), 2u);
  EXPECT_EQ(roofs[1].name, "roofline eyeriss");
  // AlexNet's conv1 (105,415,200 MACs per image) on 168 PEs at 200 MHz is compute bound: 3.1374 ms.
  ASSERT_FALSE(roofs[1].layers.empty());
  EXPECT_EQ(roofs[1].layers[0].name, "conv1");
  EXPECT_NEAR(*roofs[1].layers[0].latency_ms, 105415200.0 / (168 * 200e3), 1e-9);
}

TEST(EstimatorRegistry, EstimateReportsEveryForm) {
  const Workload alexnet = load_workload(test::source_dir() + "/workloads/alexnet.yaml");
  const ChipInputs eyeriss = chip("eyeriss.yaml");
  EstimatorSettings lahmer;
  lahmer.set("board", "tx2");
  for (const auto& [name, settings] : {std::pair{"cnnergy", EstimatorSettings{}},
                                       std::pair{"roofline", EstimatorSettings{}}, std::pair{"lahmer", lahmer}}) {
    const EstimateReport report = find_estimator(name)->estimate({alexnet, &eyeriss, settings, test::source_dir()});
    EXPECT_NE(report.forms.json.find("\"schema_version\": "), std::string::npos) << name;
    EXPECT_FALSE(report.forms.table.empty()) << name;
    EXPECT_NE(report.forms.csv.find('\n'), std::string::npos) << name;
    EXPECT_TRUE(report.source.energy_mj || report.source.latency_ms) << name;
  }
}

}  // namespace
}  // namespace ergon
