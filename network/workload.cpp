#include "network/workload.hpp"

#include <fmt/format.h>

#include <boost/graph/connected_components.hpp>
#include <boost/graph/strong_components.hpp>
#include <boost/graph/undirected_graph.hpp>
#include <map>
#include <memory>
#include <queue>

#include "common/input_error.hpp"
#include "common/text.hpp"
#include "common/yaml_view.hpp"
#include "network/importers/onnx_model.hpp"
#include "network/layer_parser.hpp"
#include "network/shape_inference.hpp"

namespace ergon {

const char* op_name(OpKind op) {
  switch (op) {
    case OpKind::kInput: return "input";
    case OpKind::kConv: return "conv";
    case OpKind::kFullyConnected: return "fc";
    case OpKind::kMaxPool: return "maxpool";
    case OpKind::kAvgPool: return "avgpool";
    case OpKind::kGlobalAvgPool: return "global_avgpool";
    case OpKind::kGlobalMaxPool: return "global_maxpool";
    case OpKind::kAdd: return "add";
    case OpKind::kMul: return "mul";
    case OpKind::kConcat: return "concat";
    case OpKind::kActivation: return "activation";
    case OpKind::kSlice: return "slice";
    case OpKind::kUpsample: return "upsample";
    case OpKind::kLayout: return "layout";
    case OpKind::kElementwise: return "elementwise";
    case OpKind::kMatMul: return "matmul";
  }
  return "?";
}

void fail_at_layer(const Layer& layer, const std::string& key, const std::string& message) {
  throw InputError(layer.location, layer.key_path + (key.empty() ? "" : "." + key), message);
}

Workload::Workload(std::string name, std::string source, std::string file, std::vector<Layer> layers_in_order,
                   LayerGraph graph)
    : name_(std::move(name)),
      source_(std::move(source)),
      file_(std::move(file)),
      layers_(std::move(layers_in_order)),
      graph_(std::move(graph)) {
  for (std::size_t i = 0; i < layers_.size(); ++i) index_by_name_.emplace(layers_[i].name, i);
}

void Workload::set_batch(std::int64_t images) {
  for (Layer& layer : layers_) layer.batch = images;
}

const Layer* Workload::find_layer(const std::string& name) const {
  const auto found = index_by_name_.find(name);
  return found == index_by_name_.end() ? nullptr : &layers_[found->second];
}

bool Workload::reads_network_input(const Layer& layer) const {
  for (const auto& name : layer.input_names) {
    const Layer* producer = find_layer(name);
    if (producer != nullptr && producer->op == OpKind::kInput &&
        !std::get<InputParams>(producer->params).intermediate) {
      return true;
    }
  }
  return false;
}

namespace {
std::uint64_t checked_sum(const std::vector<Layer>& layers, std::uint64_t Layer::*count) {
  std::uint64_t total = 0;
  for (const auto& layer : layers) {
    if (__builtin_add_overflow(total, layer.*count, &total)) {
      throw InputError(layer.location, layer.key_path, "the workload's total count overflows 64 bits");
    }
  }
  return total;
}
}  // namespace

std::uint64_t Workload::total_macs() const {
  return checked_sum(layers_, &Layer::macs);
}

std::uint64_t Workload::total_vector_ops() const {
  return checked_sum(layers_, &Layer::vector_ops);
}

std::uint64_t Workload::total_params() const {
  return checked_sum(layers_, &Layer::params_count);
}

namespace {

// Graph in file order: vertex i = layers[i]; an edge per named input. Unknown names are errors.
LayerGraph build_file_order_graph(const std::vector<Layer>& layers) {
  std::map<std::string, std::size_t> index_of;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    if (layers[i].name == kTotalRowName) {  // reports and sweeps would take the layer for the network's row
      fail_at_layer(layers[i], "name",
                    "'total' names the whole network's row in every report; give the layer another name");
    }
    if (!index_of.emplace(layers[i].name, i).second) {
      fail_at_layer(layers[i], "name", "duplicate layer name '" + layers[i].name + "'; layer names must be unique");
    }
    names.push_back(layers[i].name);
  }
  LayerGraph graph(layers.size());
  for (std::size_t i = 0; i < layers.size(); ++i) {
    for (const auto& input : layers[i].input_names) {
      const auto found = index_of.find(input);
      if (found == index_of.end()) {
        const std::string suggestion = closest_match(input, names);
        fail_at_layer(
            layers[i], "inputs",
            "unknown input '" + input + "'" + (suggestion.empty() ? "" : "; did you mean '" + suggestion + "'?"));
      }
      if (found->second == i) fail_at_layer(layers[i], "inputs", "a layer cannot read its own output");
      boost::add_edge(found->second, i, graph);
    }
  }
  return graph;
}

// Kahn's algorithm, always taking the earliest-written ready layer, so the order is deterministic.
std::vector<std::size_t> topological_order(const std::vector<Layer>& layers, const LayerGraph& graph) {
  std::vector<std::size_t> pending_inputs(layers.size());
  std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
  for (std::size_t v = 0; v < layers.size(); ++v) {
    pending_inputs[v] = boost::in_degree(v, graph);
    if (pending_inputs[v] == 0) ready.push(v);
  }
  std::vector<std::size_t> order;
  while (!ready.empty()) {
    const std::size_t v = ready.top();
    ready.pop();
    order.push_back(v);
    for (auto [edge, end] = boost::out_edges(v, graph); edge != end; ++edge) {
      const std::size_t consumer = boost::target(*edge, graph);
      if (--pending_inputs[consumer] == 0) ready.push(consumer);
    }
  }
  if (order.size() != layers.size()) {
    // Layers left over either sit on a cycle or wait on one; name those on it (strong components).
    std::vector<std::size_t> component(layers.size());
    boost::strong_components(graph, component.data());
    std::map<std::size_t, std::vector<std::size_t>> members;
    for (std::size_t v = 0; v < layers.size(); ++v) {
      if (pending_inputs[v] > 0) members[component[v]].push_back(v);
    }
    for (const auto& [id, vertices] : members) {
      if (vertices.size() < 2) continue;
      std::vector<std::string> names;
      for (const std::size_t v : vertices) names.push_back(layers[v].name);
      fail_at_layer(layers[vertices.front()], "inputs",
                    "the graph has a cycle through " + join_alternatives(names) +
                        "; a layer may only read results computed before it");
    }
  }
  return order;
}

void check_connected(const std::vector<Layer>& layers, const LayerGraph& graph) {
  using Undirected = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
  Undirected undirected(layers.size());
  for (auto [edge, end] = boost::edges(graph); edge != end; ++edge) {
    boost::add_edge(boost::source(*edge, graph), boost::target(*edge, graph), undirected);
  }
  std::vector<int> component(layers.size());
  if (boost::connected_components(undirected, component.data()) <= 1) return;
  for (std::size_t v = 0; v < layers.size(); ++v) {
    if (component[v] != component[0]) {
      fail_at_layer(layers[v], "",
                    fmt::format("layer '{}' is not connected to '{}'; connect it, or set independent_layers: true "
                                "for a table of unrelated layers",
                                layers[v].name, layers[0].name));
    }
  }
}

std::vector<Layer> parse_layers(YamlMap& root, std::int64_t default_batch) {
  const YamlView list = root.at("layers");
  std::vector<Layer> layers;
  for (const auto& item : list.items()) layers.push_back(parse_layer(item, default_batch));
  if (layers.empty()) list.fail("a workload needs at least one layer");
  if (std::none_of(layers.begin(), layers.end(), [](const Layer& l) { return l.op == OpKind::kInput; })) {
    list.fail("a workload needs at least one 'op: input' node giving the input shape");
  }
  return layers;
}

// `skipped_nodes: [{node, op, macs}]`: what an import left out (network/workload.hpp, SkippedNode).
std::vector<SkippedNode> parse_skipped_nodes(YamlMap& root) {
  std::vector<SkippedNode> nodes;
  const std::optional<YamlView> list = root.find("skipped_nodes");
  if (!list) return nodes;
  for (const YamlView& item : list->items()) {
    YamlMap entry(item);
    SkippedNode node{entry.get_string("node"), entry.get_string("op"), std::nullopt};
    if (entry.has("macs")) node.macs = static_cast<std::uint64_t>(entry.get_int("macs", kNonNegativeInt));
    entry.reject_unknown_keys();
    nodes.push_back(node);
  }
  return nodes;
}

}  // namespace

Workload load_workload(const std::string& path) {
  if (path.size() > 5 && path.compare(path.size() - 5, 5, ".onnx") == 0)
    return load_onnx_workload(path, model_import_options());
  return parse_workload(load_yaml_file(path), path);
}

Workload parse_workload(const YAML::Node& document, const std::string& path) {
  auto origin = std::make_shared<YamlOrigin>(YamlOrigin{path, {}});
  YamlMap root(YamlView(document, origin, ""));
  const std::string name = root.get_string("name");
  const std::string source = root.get_string("source");
  const std::int64_t default_batch = root.get_int("batch", 1, IntRule{1, kMaxBatch});
  const bool independent_layers = root.get_bool("independent_layers", false);
  std::vector<Layer> file_layers = parse_layers(root, default_batch);
  std::vector<SkippedNode> skipped_nodes = parse_skipped_nodes(root);
  root.reject_unknown_keys();

  const LayerGraph file_graph = build_file_order_graph(file_layers);
  const std::vector<std::size_t> order = topological_order(file_layers, file_graph);
  if (!independent_layers) check_connected(file_layers, file_graph);

  std::vector<std::size_t> position(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) position[order[i]] = i;
  std::vector<Layer> layers;
  std::map<std::string, TensorShape> output_shapes;  // of the layers placed so far
  LayerGraph graph(order.size());
  for (const std::size_t v : order) {
    Layer layer = std::move(file_layers[v]);
    for (auto [edge, end] = boost::in_edges(v, file_graph); edge != end; ++edge) {
      boost::add_edge(position[boost::source(*edge, file_graph)], layers.size(), graph);
    }
    for (const auto& input : layer.input_names) layer.input_shapes.push_back(output_shapes.at(input));
    infer_layer_shape(layer);
    output_shapes.emplace(layer.name, layer.output_shape);
    layers.push_back(std::move(layer));
  }
  Workload workload(name, source, path, std::move(layers), std::move(graph));
  workload.set_skipped_nodes(std::move(skipped_nodes));
  workload.total_macs();  // reject totals that overflow now, not when a report is printed
  workload.total_params();
  workload.total_vector_ops();
  return workload;
}

void refuse_workload_without_work(const Workload& workload) {
  if (workload.total_macs() > 0 || workload.total_vector_ops() > 0) return;
  std::map<std::string, int> per_op;
  for (const Layer& layer : workload.layers()) ++per_op[op_name(layer.op)];
  std::string held;
  for (const auto& [op, count] : per_op) held += fmt::format("{}{} {}", held.empty() ? "" : ", ", count, op);
  throw UsageError(fmt::format(
      "{}: the workload '{}' has no layer that computes ({} layer{}: {}); nothing to simulate, its latency would be 0 "
      "(give a workload with a conv, fc, pool or element-wise layer)",
      workload.file(), workload.name(), workload.layers().size(), workload.layers().size() == 1 ? "" : "s", held));
}

}  // namespace ergon
