// The real third-party models shipped in tests/data/onnx (see its README for sources and licences) import,
// simulate on a row-stationary and on a systolic array with identical MACs, and match the published MAC
// figures tests/data/onnx/corpus.tsv cites. The rest of the corpus is fetched and checked outside the test
// suite (scripts/fetch_models.sh, scripts/check_models.py).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "arch/accelerator_config.hpp"
#include "network/importers/onnx_model.hpp"
#include "power/energy_table.hpp"
#include "sim/simulation.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

struct CorpusModel {
  std::string name;
  std::string options;
  double published_macs = 0;  // 0: no published figure
  double tolerance = 0;
};

std::vector<std::string> split(const std::string& line, char separator) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  for (std::string field; std::getline(in, field, separator);) fields.push_back(field);
  return fields;
}

std::vector<CorpusModel> shipped_models() {
  std::ifstream in(test::source_dir() + "/tests/data/onnx/corpus.tsv");
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = split(line, '\t');
  const auto column = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  };
  std::vector<CorpusModel> models;
  while (std::getline(in, line)) {
    std::vector<std::string> fields = split(line, '\t');
    fields.resize(header.size());
    if (fields[column("source")] != "shipped") continue;
    CorpusModel model{fields[column("model")], fields[column("options")]};
    if (!fields[column("published_macs")].empty()) {
      model.published_macs = std::stod(fields[column("published_macs")]);
      model.tolerance = std::stod(fields[column("macs_tolerance")]);
    }
    models.push_back(model);
  }
  return models;
}

// The manifest's command-line options as import options.
OnnxImportOptions import_options(const std::string& text) {
  OnnxImportOptions options;
  const std::vector<std::string> words = split(text, ' ');
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i] == "--skip-unsupported") options.skip_unsupported = true;
    if (words[i] == "--input-shape") add_input_shape(options, words.at(++i));
    if (words[i] == "--input-value") add_input_value(options, words.at(++i));
  }
  return options;
}

TEST(OnnxCorpus, ShippedModelsMatchPublishedMacsAndSimulateAlikeOnBothArrays) {
  const std::vector<CorpusModel> models = shipped_models();
  ASSERT_GE(models.size(), 11u);
  const EnergyTable table = load_energy_table(test::source_dir() + "/power/tables/cnnergy_65nm.yaml");
  std::vector<AcceleratorConfig> configs;
  for (const char* name : {"eyeriss", "edge_tpu"}) {
    configs.push_back(load_accelerator_config(test::source_dir() + "/configs/" + name + ".yaml"));
  }
  int published = 0;
  for (const CorpusModel& model : models) {
    SCOPED_TRACE(model.name);
    const Workload workload = load_onnx_workload(test::source_dir() + "/tests/data/onnx/" + model.name + ".onnx",
                                                 import_options(model.options));
    ASSERT_GT(workload.total_macs(), 0u);
    if (model.published_macs > 0) {
      ++published;
      EXPECT_NEAR(static_cast<double>(workload.total_macs()), model.published_macs,
                  model.tolerance * model.published_macs);
    }
    for (const AcceleratorConfig& config : configs) {
      const SimulationResult result = Simulation(config, table, workload, SimulationOptions{}).run();
      EXPECT_EQ(result.total.macs, workload.total_macs()) << config.name;
      EXPECT_EQ(result.total.vector_ops, workload.total_vector_ops()) << config.name;
      EXPECT_GT(result.total.cycles, 0u) << config.name;
    }
  }
  EXPECT_GE(published, 5);
}

}  // namespace
}  // namespace ergon
