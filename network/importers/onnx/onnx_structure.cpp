#include "network/importers/onnx/onnx_structure.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <queue>
#include <set>
#include <vector>

#include "common/input_error.hpp"

namespace ergon {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const std::string& path, const std::string& where, const std::string& message) {
  throw InputError({path, 0, 0, {}}, where, message);
}

std::string node_where(const onnx::NodeProto& node, int index) {
  return fmt::format("graph.node[{}] ({} '{}')", index, node.op_type(), node.name());
}

std::string node_label(const onnx::NodeProto& node) {
  return fmt::format("'{}' ({})", node.name(), node.op_type());
}

// Tensors a subgraph (an If branch, a Loop body) reads from the scopes around it.
void add_outer_reads(const onnx::GraphProto& graph, std::set<std::string>& reads) {
  std::set<std::string> own;
  for (const auto& input : graph.input()) own.insert(input.name());
  for (const auto& init : graph.initializer()) own.insert(init.name());
  for (const auto& node : graph.node()) own.insert(node.output().begin(), node.output().end());
  std::set<std::string> wanted;
  for (const auto& node : graph.node()) {
    for (const auto& input : node.input()) wanted.insert(input);
    for (const auto& attribute : node.attribute()) {
      if (attribute.has_g()) add_outer_reads(attribute.g(), wanted);
      for (const auto& sub : attribute.graphs()) add_outer_reads(sub, wanted);
    }
  }
  for (const auto& name : wanted) {
    if (!name.empty() && own.count(name) == 0) reads.insert(name);
  }
}

// Every tensor a node reads: its inputs and what its subgraphs take from the graph around them.
std::set<std::string> node_reads(const onnx::NodeProto& node) {
  std::set<std::string> reads(node.input().begin(), node.input().end());
  reads.erase("");
  for (const auto& attribute : node.attribute()) {
    if (attribute.has_g()) add_outer_reads(attribute.g(), reads);
    for (const auto& sub : attribute.graphs()) add_outer_reads(sub, reads);
  }
  return reads;
}

// A tensor written twice (by two nodes, or by a node over a graph input or initializer) has no one value.
std::map<std::string, int> single_writers(const std::string& path, const onnx::GraphProto& graph) {
  std::set<std::string> given;
  for (const auto& input : graph.input()) given.insert(input.name());
  for (const auto& init : graph.initializer()) given.insert(init.name());
  std::map<std::string, int> writer;
  for (int index = 0; index < graph.node_size(); ++index) {
    const onnx::NodeProto& node = graph.node(index);
    for (const auto& output : node.output()) {
      if (output.empty()) continue;
      if (given.count(output) > 0) {
        fail(path, node_where(node, index),
             fmt::format("writes tensor '{}', which is already a graph input or initializer; every tensor of an "
                         "ONNX graph has one writer",
                         output));
      }
      const auto [found, inserted] = writer.emplace(output, index);
      if (!inserted) {
        fail(path, node_where(node, index),
             fmt::format("writes tensor '{}', which node {} also writes (graph.node[{}]); every tensor of an ONNX "
                         "graph has one writer",
                         output, node_label(graph.node(found->second)), found->second));
      }
    }
  }
  return writer;
}

void check_inputs_exist(const std::string& path, const onnx::GraphProto& graph,
                        const std::map<std::string, int>& writer) {
  std::set<std::string> given;
  for (const auto& input : graph.input()) given.insert(input.name());
  for (const auto& init : graph.initializer()) given.insert(init.name());
  for (int index = 0; index < graph.node_size(); ++index) {
    for (const auto& input : graph.node(index).input()) {
      if (input.empty() || given.count(input) > 0 || writer.count(input) > 0) continue;
      fail(path, node_where(graph.node(index), index),
           fmt::format("input tensor '{}' is neither a graph input, an initializer, nor the output of an earlier node: "
                       "nothing in the model writes it (is the model complete?)",
                       input));
    }
  }
}

// A cycle among `left` (every node there has a producer there): walk producers until a node repeats.
[[noreturn]] void report_cycle(const std::string& path, const onnx::GraphProto& graph,
                               const std::vector<std::vector<std::pair<int, std::string>>>& producers,
                               const std::set<int>& left) {
  std::vector<int> walk;          // nodes, each read by the one before it
  std::vector<std::string> read;  // read[i]: the tensor walk[i] reads from walk[i + 1]
  std::map<int, std::size_t> position;
  for (int node = *left.begin(); position.count(node) == 0;) {
    position[node] = walk.size();
    walk.push_back(node);
    for (const auto& [producer, tensor] : producers[static_cast<std::size_t>(node)]) {
      if (left.count(producer) == 0) continue;
      read.push_back(tensor);
      node = producer;
      break;
    }
    if (read.size() < walk.size()) fail(path, "graph", "the nodes form a cycle");  // unreachable: see above
    if (position.count(node) > 0) {
      std::vector<std::string> steps;
      for (std::size_t i = position[node]; i < walk.size(); ++i) {
        const int next = i + 1 < walk.size() ? walk[i + 1] : node;
        steps.push_back(fmt::format("{} reads '{}' from {}", node_label(graph.node(walk[i])), read[i],
                                    node_label(graph.node(next))));
      }
      fail(path, "graph",
           fmt::format("the nodes form a cycle: {}; an ONNX graph must be acyclic", fmt::join(steps, ", ")));
    }
  }
  fail(path, "graph", "the nodes form a cycle");
}

// The nodes in a topological order (file order among the ready ones), or an InputError naming a cycle.
void sort_nodes(const std::string& path, onnx::GraphProto& graph, const std::map<std::string, int>& writer) {
  const auto count = static_cast<std::size_t>(graph.node_size());
  std::vector<std::vector<std::pair<int, std::string>>> producers(count);
  std::vector<std::vector<int>> consumers(count);
  std::vector<int> waiting(count, 0);
  for (int index = 0; index < graph.node_size(); ++index) {
    for (const std::string& tensor : node_reads(graph.node(index))) {
      const auto found = writer.find(tensor);
      if (found == writer.end()) continue;
      producers[static_cast<std::size_t>(index)].emplace_back(found->second, tensor);
      consumers[static_cast<std::size_t>(found->second)].push_back(index);
      ++waiting[static_cast<std::size_t>(index)];
    }
  }
  std::priority_queue<int, std::vector<int>, std::greater<>> ready;
  for (std::size_t i = 0; i < count; ++i) {
    if (waiting[i] == 0) ready.push(static_cast<int>(i));
  }
  std::vector<int> order;
  while (!ready.empty()) {
    const int node = ready.top();
    ready.pop();
    order.push_back(node);
    for (const int consumer : consumers[static_cast<std::size_t>(node)]) {
      if (--waiting[static_cast<std::size_t>(consumer)] == 0) ready.push(consumer);
    }
  }
  if (order.size() < count) {
    std::set<int> left;
    for (std::size_t i = 0; i < count; ++i) {
      if (waiting[i] > 0) left.insert(static_cast<int>(i));
    }
    report_cycle(path, graph, producers, left);
  }
  google::protobuf::RepeatedPtrField<onnx::NodeProto> sorted;
  for (const int index : order) *sorted.Add() = graph.node(index);
  graph.mutable_node()->Swap(&sorted);
}

// An initializer kept in an external file: the file must exist beside the model; a small one (a shape
// tensor) is read into the model so its values fold.
void check_external_data(const std::string& path, onnx::GraphProto& graph) {
  constexpr std::uintmax_t kMaxReadBytes = 1 << 20;
  for (auto& init : *graph.mutable_initializer()) {
    if (init.data_location() != onnx::TensorProto::EXTERNAL) continue;
    std::map<std::string, std::string> entries;
    for (const auto& entry : init.external_data()) entries[entry.key()] = entry.value();
    const std::string where = "initializer " + init.name();
    if (entries["location"].empty()) fail(path, where, "is stored externally but names no external-data file");
    const fs::path file = fs::path(path).parent_path() / entries["location"];
    std::error_code status;
    if (!fs::is_regular_file(file, status)) {
      fail(path, where,
           fmt::format("its data is in the external-data file '{}' ({}), which does not exist; keep the model's "
                       "external-data files beside it",
                       entries["location"], file.string()));
    }
    const std::uintmax_t size = fs::file_size(file, status);
    std::uintmax_t offset = 0, length = 0;
    try {
      offset = entries["offset"].empty() ? 0 : std::stoull(entries["offset"]);
      length = entries["length"].empty() ? size - std::min(offset, size) : std::stoull(entries["length"]);
    } catch (const std::exception&) {
      fail(path, where, "its external-data offset or length is not a whole number");
    }
    if (offset > size || length > size - offset) {
      fail(path, where,
           fmt::format("its external data (offset {}, {} bytes) runs past the end of '{}' ({} bytes)", offset, length,
                       file.string(), size));
    }
    if (length > kMaxReadBytes) continue;  // weights: their dims are all the import needs
    std::ifstream in(file, std::ios::binary);
    std::string bytes(static_cast<std::size_t>(length), '\0');
    in.seekg(static_cast<std::streamoff>(offset));
    if (!in.read(bytes.data(), static_cast<std::streamsize>(length))) {
      fail(path, where, "cannot read its external-data file '" + file.string() + "'");
    }
    init.set_raw_data(bytes);
    init.clear_external_data();
    init.set_data_location(onnx::TensorProto::DEFAULT);
  }
}

}  // namespace

void check_graph_structure(const std::string& path, onnx::ModelProto& model) {
  onnx::GraphProto& graph = *model.mutable_graph();
  check_external_data(path, graph);
  const std::map<std::string, int> writer = single_writers(path, graph);
  check_inputs_exist(path, graph, writer);
  sort_nodes(path, graph, writer);
}

}  // namespace ergon
