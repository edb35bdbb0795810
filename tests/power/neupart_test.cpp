// NeuPart partitioning: eq. 25's compressed sizes, cuts through a residual block sending both tensors,
// the two extremes, and the optimum moving with the bit rate.
#include "power/partition/neupart.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace ergon {
namespace {

Workload residual_block() {
  const std::string path = (std::filesystem::temp_directory_path() / "ergon_neupart_residual.yaml").string();
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

TEST(NeuPart, SparsityComesFromTheLayerTableOrItsNeighbours) {
  const Workload w = residual_block();
  const std::vector<double> none = tensor_sparsity(w, nullptr, 0.25);
  EXPECT_DOUBLE_EQ(none[1], 0.25);
  EXPECT_DOUBLE_EQ(none[3], 0.25);  // an add carries its input's
}

}  // namespace
}  // namespace ergon
