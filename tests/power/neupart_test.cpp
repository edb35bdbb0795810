// NeuPart partitioning: eq. 25's compressed sizes and its RLC overhead at any width, cuts through a residual
// block sending both tensors, the two extremes and the savings against each as Table IV reports them, the
// optimum moving with the bit rate, the client computing the sparsities the transmission sizes, the paper's
// layer names, and the figures' data.
#include "studies/neupart/neupart.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

#include "studies/neupart/neupart_figures.hpp"
#include "studies/neupart/paper_layer_names.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

Workload residual_block() {
  const std::string path = (test::unique_temp_path("ergon_neupart_residual.yaml")).string();
  std::ofstream(path) << R"(name: residual
source: test
layers:
  - {name: image, op: input, shape: [3, 32, 32]}
  - {name: stem, op: conv, inputs: [image], filters: 16, kernel: 3, padding: 1}
  - {name: branch, op: conv, inputs: [stem], filters: 16, kernel: 3, padding: 1}
  - {name: join, op: add, inputs: [stem, branch]}
  - {name: head, op: conv, inputs: [join], filters: 4, kernel: 1}
)";
  return load_workload(path);
}

PartitionInputs inputs_for(const Workload& w) {
  PartitionInputs in;
  in.client_energy_j = {0, 1e-3, 1e-3, 1e-4, 1e-4};
  in.client_latency_s = {0, 1e-3, 1e-3, 1e-4, 1e-4};
  in.ofmap_sparsity = std::vector<double>(w.layers().size(), 0.5);
  in.input_sparsity = 0.6;
  return in;
}

TEST(NeuPart, CompressedSizesFollowEquation25) {
  EXPECT_DOUBLE_EQ(rlc_bits(1000, 0.5, 8), 1000 * 8 * 0.5 * 1.6);
  EXPECT_DOUBLE_EQ(rlc_bits(1000, 0.25, 16), 1000 * 16 * 0.75 * (4.0 / 3.0));
}

// alpha = 64 / (pairs x bits) - 1 with pairs = floor(63 / (bits + run bits)), worked by hand.
TEST(NeuPart, RlcOverheadFollowsTheWordLayoutAtAnyWidth) {
  // 8-bit values, 4-bit runs (the paper's): 63 / 12 -> 5 pairs, 40 data bits per 64: alpha = 24/40 = 3/5.
  EXPECT_EQ(rlc_pairs_per_word(8, paper_rlc_run_bits(8)), 5);
  EXPECT_DOUBLE_EQ(rlc_overhead(8, 4), 3.0 / 5.0);
  // 16-bit values, 5-bit runs (the paper's, Eyeriss's): 63 / 21 -> 3 pairs, 48 data bits: alpha = 16/48 = 1/3.
  EXPECT_EQ(rlc_pairs_per_word(16, paper_rlc_run_bits(16)), 3);
  EXPECT_DOUBLE_EQ(rlc_overhead(16, 5), 1.0 / 3.0);
  // 4-bit values, 5-bit runs: 63 / 9 -> 7 pairs, 28 data bits: alpha = 36/28 = 9/7.
  EXPECT_EQ(rlc_pairs_per_word(4, 5), 7);
  EXPECT_DOUBLE_EQ(rlc_overhead(4, 5), 9.0 / 7.0);
  // 32-bit values with the default 5-bit runs: 63 / 37 -> 1 pair, alpha = 32/32 = 1 (the old code said 1/3).
  EXPECT_EQ(paper_rlc_run_bits(32), 5);
  EXPECT_DOUBLE_EQ(rlc_bits(1000, 0.5, 32), 1000 * 32 * 0.5 * 2.0);
  // 12-bit values with 4-bit runs: 63 / 16 -> 3 pairs (the flag leaves no room for a 4th), 36 bits: alpha = 7/9.
  EXPECT_DOUBLE_EQ(rlc_overhead(12, 4), 28.0 / 36.0);
}

TEST(NeuPart, RlcRejectsWidthsThatCannotBeCoded) {
  EXPECT_THROW(rlc_overhead(0, 4), std::invalid_argument);
  EXPECT_THROW(rlc_overhead(-8, 4), std::invalid_argument);
  EXPECT_THROW(rlc_overhead(8, 0), std::invalid_argument);
  EXPECT_THROW(rlc_bits(10, 0.5, 60), std::invalid_argument);  // 60 + 5 + 1 > 64
  EXPECT_EQ(rlc_pairs_per_word(58, 5), 1);                     // 58 + 5 + 1 = 64 just fits
  const Workload w = residual_block();
  PartitionInputs in = inputs_for(w);
  in.word_bits = 64;
  EXPECT_THROW(partition_network(w, in), std::invalid_argument);
}

TEST(NeuPart, CutsInsideABranchSendEveryCrossingTensor) {
  const Workload w = residual_block();
  const PartitionResult r = partition_network(w, inputs_for(w));
  ASSERT_EQ(r.cuts.size(), 5u);  // input only, after stem, after branch, after join, everything
  EXPECT_EQ(r.cuts.front().crossing, std::vector<std::string>{"image"});
  EXPECT_DOUBLE_EQ(r.cuts.front().bits, rlc_bits(3 * 32 * 32, 0.6, 8));
  EXPECT_DOUBLE_EQ(r.cuts.front().client_energy_j, 0);
  EXPECT_EQ(r.cuts[2].crossing, (std::vector<std::string>{"stem", "branch"}));  // the skip and the branch
  EXPECT_DOUBLE_EQ(r.cuts[2].bits, 2 * rlc_bits(16 * 32 * 32, 0.5, 8));
  EXPECT_TRUE(r.cuts.back().crossing.empty());
  EXPECT_DOUBLE_EQ(r.cuts.back().total_energy_j, 2.2e-3);
}

TEST(NeuPart, TheOptimumMovesTowardTheClientAsTheLinkSlows) {
  const Workload w = residual_block();
  PartitionInputs in = inputs_for(w);
  in.bitrate_bps = 1e9;  // cheap transmission: send the image
  EXPECT_EQ(partition_network(w, in).best, 0u);
  in.bitrate_bps = 1e3;  // expensive transmission: compute everything locally
  const PartitionResult slow = partition_network(w, in);
  EXPECT_EQ(slow.best, slow.cuts.size() - 1);
  EXPECT_GT(slow.saving_vs_cloud_pct, 99);
  EXPECT_DOUBLE_EQ(slow.saving_vs_client_pct, 0);
}

// Table IV's FISC column does not depend on Sparsity-In: the optimum it is taken at leaves the input out, even
// where sending the input is best overall.
TEST(NeuPart, SavingAgainstLocalComputationLeavesTheCloudCutOut) {
  const Workload w = residual_block();
  PartitionInputs in = inputs_for(w);
  in.bitrate_bps = 2e8;  // fast enough that sending the image (FCC) is the overall optimum
  const PartitionResult r = partition_network(w, in);
  ASSERT_EQ(r.best, 0u);
  EXPECT_DOUBLE_EQ(r.saving_vs_cloud_pct, 0);
  ASSERT_GT(r.best_on_client, 0u);
  double least_on_client = r.cuts[1].total_energy_j;
  for (std::size_t i = 1; i < r.cuts.size(); ++i) least_on_client = std::min(least_on_client, r.cuts[i].total_energy_j);
  EXPECT_DOUBLE_EQ(r.cuts[r.best_on_client].total_energy_j, least_on_client);
  EXPECT_DOUBLE_EQ(r.saving_vs_client_pct, 100 * (1 - least_on_client / r.cuts.back().total_energy_j));
  EXPECT_LT(r.saving_vs_client_pct, 100 * (1 - r.cuts[0].total_energy_j / r.cuts.back().total_energy_j));
  for (double sparsity_in : kSparsityInQuartiles) {
    in.input_sparsity = sparsity_in;
    EXPECT_DOUBLE_EQ(partition_network(w, in).saving_vs_client_pct, r.saving_vs_client_pct) << sparsity_in;
  }
}

// The client computes what it sends: its layers carry the transmitted tensors' sparsities.
TEST(NeuPart, ClientWorkloadCarriesTheTransmittedSparsities) {
  const Workload dense = residual_block();
  const std::vector<double> sent = {0.0, 0.4, 0.6, 0.3, 0.8};  // image, stem, branch, join, head
  const Workload client = with_tensor_sparsity(dense, sent);
  const auto& layers = client.layers();
  ASSERT_EQ(layers.size(), sent.size());
  for (std::size_t i = 1; i < layers.size(); ++i) EXPECT_DOUBLE_EQ(layers[i].sparsity.ofmap, sent[i]) << i;
  EXPECT_DOUBLE_EQ(layers[1].sparsity.ifmap, dense.layers()[1].sparsity.ifmap);  // reads the image: its own
  EXPECT_DOUBLE_EQ(layers[2].sparsity.ifmap, 0.4);                               // reads stem
  EXPECT_DOUBLE_EQ(layers[3].sparsity.ifmap, (0.4 + 0.6) / 2);                   // stem and branch, equal sizes
  EXPECT_DOUBLE_EQ(layers[4].sparsity.ifmap, 0.3);
  EXPECT_EQ(boost::num_edges(client.graph()), boost::num_edges(dense.graph()));
}

// --table-batches: a layer takes the batch of the table row of its name; what one image sends does not change.
TEST(NeuPart, TableBatchesChangeNeitherBitsNorCutsPerImage) {
  const Workload w = residual_block();
  const std::string path = (test::unique_temp_path("ergon_neupart_table.yaml")).string();
  std::ofstream(path) << R"(name: table
source: test
independent_layers: true
layers:
  - {name: stem.ifmap, op: input, shape: [3, 32, 32]}
  - {name: stem, op: conv, inputs: [stem.ifmap], filters: 16, kernel: 3, padding: 1, batch: 4}
)";
  const Workload batched = with_table_batches(w, load_workload(path));
  EXPECT_EQ(batched.find_layer("stem")->batch, 4);
  EXPECT_EQ(batched.find_layer("branch")->batch, 1);
  const PartitionResult one = partition_network(w, inputs_for(w)), four = partition_network(batched, inputs_for(w));
  ASSERT_EQ(one.cuts.size(), four.cuts.size());
  for (std::size_t i = 0; i < one.cuts.size(); ++i) {
    EXPECT_DOUBLE_EQ(four.cuts[i].bits, one.cuts[i].bits) << i;
    EXPECT_DOUBLE_EQ(four.cuts[i].delay_s, one.cuts[i].delay_s) << i;
  }
}

TEST(NeuPart, PaperLayerNamesMatchTheShippedWorkloads) {
  for (const std::string name : {"alexnet", "squeezenet_v1_1"}) {
    const Workload w = load_workload(test::source_dir() + "/workloads/" + name + ".yaml");
    const auto& names = paper_layer_names(name);
    ASSERT_FALSE(names.empty()) << name;
    for (const auto& [ergon_name, paper] : names) EXPECT_NE(w.find_layer(ergon_name), nullptr) << ergon_name;
  }
  const auto& alexnet = paper_layer_names("alexnet");
  EXPECT_EQ(alexnet.at("pool2"), "P2");  // Fig. 10's optimum
  EXPECT_EQ(alexnet.at("pool5"), "P3");  // the third pooling layer (Fig. 13b's candidates P1-P3)
  EXPECT_EQ(alexnet.at("conv5"), "C5");
  const auto& squeezenet = paper_layer_names("squeezenet_v1_1");
  EXPECT_EQ(squeezenet.at("fire5.squeeze1x1"), "Fs4");  // the fourth fire module
  EXPECT_EQ(squeezenet.at("fire2.concat"), "Fe1");
  EXPECT_EQ(squeezenet.at("pool3"), "P2");
  EXPECT_TRUE(paper_layer_names("resnet18").empty());
}

TEST(NeuPart, CutsAreNamedBothWays) {
  const Workload w = load_workload(test::source_dir() + "/workloads/squeezenet_v1_1.yaml");
  PartitionInputs in;
  in.client_energy_j.assign(w.layers().size(), 1e-4);
  in.client_latency_s.assign(w.layers().size(), 1e-4);
  in.ofmap_sparsity.assign(w.layers().size(), 0.5);
  const PartitionResult r = partition_network(w, in);
  auto cut_after = [&](const std::string& layer) {
    for (const CutResult& cut : r.cuts) {
      if (cut.last_client_layer == layer) return cut;
    }
    throw std::logic_error("no cut after " + layer);
  };
  EXPECT_EQ(cut_name_both_ways(w, cut_after("fire5.squeeze1x1")), "after fire5.squeeze1x1 (paper: Fs4)");
  // Between the two expand convolutions: no paper name; after both (before the concat): the expand layer.
  EXPECT_EQ(paper_cut_name(w, cut_after("fire2.expand1x1")), "");
  EXPECT_EQ(paper_cut_name(w, cut_after("fire2.expand3x3")), "Fe1");
  EXPECT_EQ(paper_cut_name(w, cut_after("fire2.concat")), "Fe1");
  EXPECT_EQ(paper_cut_name(w, r.cuts.front()), "In");
  EXPECT_EQ(
      cut_name_both_ways(residual_block(), partition_network(residual_block(), inputs_for(residual_block())).cuts[1]),
      "after stem");
}

// The Fig. 12 data: one row per quartile and bit rate; the FISC saving the same at every Sparsity-In.
TEST(NeuPart, FigureDataCoverTheQuartilesAndBitRates) {
  const Workload w = residual_block();
  const PartitionInputs in = inputs_for(w);
  const std::vector<FigureFile> files = neupart_figures(w, in, partition_network(w, in));
  EXPECT_EQ(figure_scripts(files), (std::vector<std::string>{"energy_by_cut.gp", "savings_vs_bitrate.gp",
                                                             "energy_vs_bitrate.gp", "delay_vs_bitrate.gp"}));
  const auto savings =
      std::find_if(files.begin(), files.end(), [](const FigureFile& f) { return f.name == "savings_vs_bitrate.csv"; });
  ASSERT_NE(savings, files.end());
  std::istringstream lines(savings->text);
  std::string line;
  std::getline(lines, line);
  std::map<double, std::set<std::string>> fisc_by_rate;
  std::size_t rows = 0;
  while (std::getline(lines, line)) {
    std::vector<std::string> fields;
    std::stringstream row(line);
    for (std::string field; std::getline(row, field, ',');) fields.push_back(field);
    ASSERT_EQ(fields.size(), 6u) << line;
    fisc_by_rate[std::stod(fields[1])].insert(fields[4]);
    ++rows;
  }
  EXPECT_EQ(rows, 3 * sweep_bitrates_mbps().size());
  for (const auto& [rate, savings_at_rate] : fisc_by_rate) EXPECT_EQ(savings_at_rate.size(), 1u) << rate;
  // Every figure: a title, labelled axes, the y axis with its unit, and legend entries in words (the paper's
  // abbreviations FCC and FISC explained where they name a curve).
  for (const FigureFile& file : files) {
    if (file.name.find(".gp") == std::string::npos) continue;
    EXPECT_NE(file.text.find("set xlabel"), std::string::npos) << file.name;
    EXPECT_NE(file.text.find("set ylabel"), std::string::npos) << file.name;
    EXPECT_NE(file.text.find("set title"), std::string::npos) << file.name;
    EXPECT_TRUE(std::regex_search(file.text, std::regex(R"(set ylabel '[^']*\([^')]+\)')"))) << file.name;
    EXPECT_EQ(file.text.find("title 'vs FCC"), std::string::npos) << file.name;
    EXPECT_EQ(file.text.find("title 'FISC'"), std::string::npos) << file.name;
  }
}

// A pooled tensor takes its consumer's table figure converted from the padded ifmap the AlexNet table
// counts to the unpadded tensor: conv2's 38.7 % of 31x31 is pool1's 19.19 % of 27x27 (docs/workloads.md).
TEST(NeuPart, TableSparsityOfAPooledTensorIsOverTheUnpaddedTensor) {
  const Workload table = load_workload(test::source_dir() + "/workloads/cnnergy/alexnet.yaml");
  const Workload shipped = load_workload(test::source_dir() + "/workloads/alexnet.yaml");
  std::vector<Layer> layers = shipped.layers();
  for (Layer& layer : layers) layer.sparsity = Sparsity{};
  const Workload dense(shipped.name(), shipped.source(), shipped.file(), layers, shipped.graph());
  const std::vector<double> from_table = tensor_sparsity(dense, &table, 0);
  for (const std::string name : {"pool1", "pool2", "pool5"}) {
    const std::size_t i = static_cast<std::size_t>(dense.find_layer(name) - dense.layers().data());
    EXPECT_NEAR(from_table[i], shipped.find_layer(name)->sparsity.ofmap, 0.02) << name;
  }
}

TEST(NeuPart, SparsityComesFromTheLayerTableOrItsNeighbours) {
  const Workload w = residual_block();
  const std::vector<double> none = tensor_sparsity(w, nullptr, 0.25);
  EXPECT_DOUBLE_EQ(none[1], 0.25);
  EXPECT_DOUBLE_EQ(none[3], 0.25);  // an add carries its input's
}

}  // namespace
}  // namespace ergon
