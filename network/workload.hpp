#pragma once
// A workload: a directed acyclic graph of layers (Boost.Graph), its layers in a deterministic
// topological order, with every tensor shape inferred and checked.
#include <yaml-cpp/yaml.h>

#include <boost/graph/adjacency_list.hpp>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "network/layer.hpp"

namespace ergon {

// Vertices are indices into Workload::layers(); an edge carries a tensor from producer to consumer.
using LayerGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;

// A node of an imported model left out of the workload (ONNX `--skip-unsupported`), with the MACs it would
// have done per image when they can be counted from its shapes: the figures of a run leave them out.
struct SkippedNode {
  std::string node;  // the model's node name
  std::string op;    // its operator
  std::optional<std::uint64_t> macs;
};

class Workload {
 public:
  Workload(std::string name, std::string source, std::string file, std::vector<Layer> layers_in_order,
           LayerGraph graph);

  const std::string& name() const { return name_; }
  const std::string& source() const { return source_; }
  const std::string& file() const { return file_; }
  // Where the workload is recorded as coming from, when it was read from a staged copy (cli/commands/run).
  void set_file(std::string file) { file_ = std::move(file); }
  const std::vector<Layer>& layers() const { return layers_; }  // topological order
  // Every layer processes `images` together (`--batch`): what a simulation's options.batch does, for
  // code that simulates with its own options.
  void set_batch(std::int64_t images);
  // Nodes of the source model this workload leaves out (the `skipped_nodes` key), in model order.
  const std::vector<SkippedNode>& skipped_nodes() const { return skipped_nodes_; }
  void set_skipped_nodes(std::vector<SkippedNode> nodes) { skipped_nodes_ = std::move(nodes); }
  const LayerGraph& graph() const { return graph_; }  // vertex i = layers()[i]
  const Layer* find_layer(const std::string& name) const;
  // True when the layer reads the network's own input (stored raw), not a feature map.
  bool reads_network_input(const Layer& layer) const;

  std::uint64_t total_macs() const;
  std::uint64_t total_params() const;
  std::uint64_t total_vector_ops() const;  // per image: pooling and element-wise operations

 private:
  std::string name_;
  std::string source_;
  std::string file_;
  std::vector<Layer> layers_;
  std::vector<SkippedNode> skipped_nodes_;
  LayerGraph graph_;
  std::map<std::string, std::size_t> index_by_name_;
};

// Loads and checks a workload file (docs/workloads.md); every problem is an InputError.
Workload load_workload(const std::string& path);
// The same for a document already in memory (generated workloads); `path` names it in errors.
Workload parse_workload(const YAML::Node& document, const std::string& path);

// Every command that simulates or estimates a workload refuses one with no layer that computes (only an input
// layer, or only layout changes): its latency would be 0 without a word. A UsageError saying what it holds.
void refuse_workload_without_work(const Workload& workload);

}  // namespace ergon
