#include "network/importers/onnx_model.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "common/input_error.hpp"

namespace ergon {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& where, const std::string& message) {
  throw InputError({path, 0, 0, {}}, where, message);
}

const std::map<std::string, std::string>& activation_functions() {
  static const std::map<std::string, std::string> functions = {
      {"Relu", "relu"},        {"LeakyRelu", "leaky_relu"}, {"Sigmoid", "sigmoid"}, {"Tanh", "tanh"},
      {"HardSwish", "hswish"}, {"Softmax", "softmax"},      {"Clip", "relu6"}};
  return functions;
}

const std::set<std::string>& folded_operators() {
  static const std::set<std::string> folded = {"BatchNormalization", "Dropout", "Identity"};
  return folded;
}

std::string supported_list() {
  return "Conv, Gemm, MatMul, MaxPool, AveragePool, GlobalAveragePool, GlobalMaxPool, Add, Mul, Concat, Relu, "
         "Clip (0..6), LeakyRelu, Sigmoid, Tanh, HardSwish, Softmax, Flatten, Reshape (to a vector), "
         "BatchNormalization, Dropout, Identity";
}

const onnx::AttributeProto* attribute(const onnx::NodeProto& node, const std::string& name) {
  for (const auto& a : node.attribute()) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}

std::vector<std::int64_t> ints(const onnx::NodeProto& node, const std::string& name,
                               std::vector<std::int64_t> fallback) {
  const onnx::AttributeProto* a = attribute(node, name);
  return a == nullptr ? fallback : std::vector<std::int64_t>(a->ints().begin(), a->ints().end());
}

std::int64_t integer(const onnx::NodeProto& node, const std::string& name, std::int64_t fallback) {
  const onnx::AttributeProto* a = attribute(node, name);
  return a == nullptr ? fallback : a->i();
}

std::string text(const onnx::NodeProto& node, const std::string& name, const std::string& fallback) {
  const onnx::AttributeProto* a = attribute(node, name);
  return a == nullptr ? fallback : a->s();
}

std::vector<std::int64_t> static_shape(const onnx::ValueInfoProto& value) {
  std::vector<std::int64_t> dims;
  if (!value.type().has_tensor_type() || !value.type().tensor_type().has_shape()) return dims;
  for (const auto& d : value.type().tensor_type().shape().dim()) dims.push_back(d.has_dim_value() ? d.dim_value() : -1);
  return dims;
}

class Importer {
 public:
  Importer(const std::string& path, onnx::ModelProto model) : path_(path), model_(std::move(model)) {}

  YAML::Node run() {
    const onnx::GraphProto& graph = model_.graph();
    for (const auto& init : graph.initializer()) {
      constants_[init.name()] = std::vector<std::int64_t>(init.dims().begin(), init.dims().end());
    }
    for (const auto& value : graph.value_info()) inferred_[value.name()] = static_shape(value);
    for (const auto& value : graph.output()) inferred_[value.name()] = static_shape(value);
    for (const auto& input : graph.input()) {
      if (constants_.count(input.name()) == 0) add_input(input);
    }
    for (int i = 0; i < graph.node_size(); ++i) convert(graph.node(i), i);
    if (!unsupported_.empty()) {
      std::string list;
      for (const auto& u : unsupported_) list += (list.empty() ? "" : "; ") + u;
      fail(path_, "", "unsupported ONNX operators: " + list + ". Supported: " + supported_list());
    }
    YAML::Node root;
    root["name"] = graph.name().empty() ? std::filesystem::path(path_).stem().string() : graph.name();
    root["source"] = "imported from ONNX model " + std::filesystem::path(path_).filename().string() +
                     (model_.producer_name().empty() ? "" : " (produced by " + model_.producer_name() + ")");
    if (batch_ > 1) root["batch"] = batch_;
    root["layers"] = layers_;
    return root;
  }

  // ONNX's inferred shape of a tensor, [C, H, W] or [F], when static; empty otherwise.
  std::vector<std::int64_t> onnx_shape(const std::string& tensor) const {
    const auto found = inferred_.find(tensor);
    if (found == inferred_.end() || found->second.size() < 2) return {};
    std::vector<std::int64_t> shape(found->second.begin() + 1, found->second.end());
    for (std::int64_t d : shape) {
      if (d <= 0) return {};
    }
    return shape;
  }
  const std::map<std::string, std::string>& producers() const { return producer_; }

 private:
  void add_input(const onnx::ValueInfoProto& input) {
    const std::vector<std::int64_t> dims = static_shape(input);
    const bool ok = (dims.size() == 4 || dims.size() == 2) &&
                    std::all_of(dims.begin() + 1, dims.end(), [](std::int64_t d) { return d > 0; });
    if (!ok) {
      fail(path_, "graph.input " + input.name(),
           "a network input needs a static shape [N, C, H, W] or [N, F] (got " + std::to_string(dims.size()) +
               " dimensions, or a symbolic size); export the model with a fixed input size");
    }
    batch_ = std::max<std::int64_t>(batch_, dims[0]);
    YAML::Node layer;
    layer["name"] = unique_name(input.name());
    layer["op"] = "input";
    for (std::size_t i = 1; i < dims.size(); ++i) layer["shape"].push_back(dims[i]);
    producer_[input.name()] = layer["name"].as<std::string>();
    layers_.push_back(layer);
  }

  std::string unique_name(const std::string& wanted) {
    std::string name = wanted.empty() ? "layer" : wanted;
    for (int suffix = 2; !names_.insert(name).second; ++suffix) name = wanted + "_" + std::to_string(suffix);
    return name;
  }

  bool is_constant(const std::string& tensor) const { return constants_.count(tensor) > 0; }

  // The layer producing `tensor`; an unknown tensor is an error at the node.
  std::string layer_of(const std::string& tensor, const std::string& where) {
    const auto found = producer_.find(tensor);
    if (found == producer_.end())
      fail(path_, where,
           "input tensor '" + tensor +
               "' is produced by no earlier node or input (ONNX lists nodes in "
               "topological order; is the graph cyclic or incomplete?)");
    return found->second;
  }

  YAML::Node new_layer(const onnx::NodeProto& node, const std::string& op, const std::string& where) {
    YAML::Node layer;
    layer["name"] = unique_name(node.name().empty() ? node.output(0) : node.name());
    layer["op"] = op;
    for (const auto& input : node.input()) {
      if (!input.empty() && !is_constant(input)) layer["inputs"].push_back(layer_of(input, where));
    }
    return layer;
  }

  void emit(YAML::Node layer, const onnx::NodeProto& node) {
    producer_[node.output(0)] = layer["name"].as<std::string>();
    index_of_[layer["name"].as<std::string>()] = layers_.size();
    layers_.push_back(layer);
  }

  // The node passes its (first) activation input through: no layer of its own.
  void alias(const onnx::NodeProto& node, const std::string& where) {
    for (const auto& input : node.input()) {
      if (!input.empty() && !is_constant(input)) {
        producer_[node.output(0)] = layer_of(input, where);
        return;
      }
    }
    fail(path_, where, "has no activation input");
  }

  // A window attribute of a 2-D conv or pool: `count` values, or `fallback` when absent.
  std::vector<std::int64_t> window_ints(const onnx::NodeProto& node, const std::string& name, std::size_t count,
                                        const std::vector<std::int64_t>& fallback, const std::string& where) {
    std::vector<std::int64_t> values = ints(node, name, fallback);
    if (values.size() != count) {
      fail(path_, where + "." + name,
           fmt::format("a 2-D window needs {} values, got {}; only 2-D convolutions and pools are supported", count,
                       values.size()));
    }
    return values;
  }

  void window(YAML::Node& layer, const onnx::NodeProto& node, const std::string& where) {
    const std::vector<std::int64_t> kernel = window_ints(node, "kernel_shape", 2, {}, where);
    layer["kernel"].push_back(kernel[0]);
    layer["kernel"].push_back(kernel[1]);
    const std::vector<std::int64_t> strides = window_ints(node, "strides", 2, {1, 1}, where);
    layer["stride"].push_back(strides[0]);
    layer["stride"].push_back(strides[1]);
    const std::string auto_pad = text(node, "auto_pad", "NOTSET");
    if (auto_pad == "SAME_UPPER") {
      layer["padding"] = "same";
    } else if (auto_pad == "NOTSET") {
      // top, left, bottom, right
      const std::vector<std::int64_t> pads = window_ints(node, "pads", 4, {0, 0, 0, 0}, where);
      for (std::size_t i : {0, 2, 1, 3}) layer["padding"].push_back(pads[i]);
    } else if (auto_pad != "VALID") {
      fail(path_, where, "auto_pad " + auto_pad + " is not supported (SAME_UPPER, VALID or explicit pads)");
    }
    const std::vector<std::int64_t> dilations = window_ints(node, "dilations", 2, {1, 1}, where);
    if (dilations != std::vector<std::int64_t>{1, 1}) {
      layer["dilation"].push_back(dilations[0]);
      layer["dilation"].push_back(dilations[1]);
    }
  }

  void convert_conv(const onnx::NodeProto& node, const std::string& where) {
    if (node.input_size() < 2 || !is_constant(node.input(1))) fail(path_, where, "Conv needs constant weights");
    const std::vector<std::int64_t>& weights = constants_.at(node.input(1));
    if (weights.size() != 4) fail(path_, where, "only 2-D convolutions are supported");
    YAML::Node layer = new_layer(node, "conv", where);
    layer["filters"] = weights[0];
    window(layer, node, where);
    const std::int64_t groups = integer(node, "group", 1);
    if (groups != 1) layer["groups"] = groups;
    layer["bias"] = node.input_size() > 2 && !node.input(2).empty();
    emit(layer, node);
  }

  void convert_dense(const onnx::NodeProto& node, const std::string& where) {
    if (node.input_size() < 2 || !is_constant(node.input(1))) {
      fail(path_, where, node.op_type() + " needs constant weights as its second input");
    }
    const std::vector<std::int64_t>& weights = constants_.at(node.input(1));
    if (weights.size() != 2) fail(path_, where, node.op_type() + " weights must be a matrix");
    if (integer(node, "transA", 0) != 0) fail(path_, where, "Gemm with transA is not supported");
    YAML::Node layer = new_layer(node, "fc", where);
    layer["outputs"] = integer(node, "transB", 0) != 0 ? weights[0] : weights[1];
    layer["bias"] = node.op_type() == "Gemm" && node.input_size() > 2 && !node.input(2).empty();
    emit(layer, node);
  }

  void convert_pool(const onnx::NodeProto& node, const std::string& where) {
    YAML::Node layer = new_layer(node, node.op_type() == "MaxPool" ? "maxpool" : "avgpool", where);
    window(layer, node, where);
    if (integer(node, "ceil_mode", 0) != 0) layer["ceil_mode"] = true;
    emit(layer, node);
  }

  void convert_activation(const onnx::NodeProto& node, const std::string& where) {
    if (node.op_type() == "Clip") {  // Clip(0, 6) is ReLU6; other bounds are not an activation we model
      const bool relu6 = node.input_size() >= 3 && is_constant(node.input(1)) && is_constant(node.input(2));
      const onnx::AttributeProto* max = attribute(node, "max");
      if (!relu6 && !(max != nullptr && max->f() == 6.0f)) {
        unsupported_.push_back("Clip other than [0, 6] (" + where + ")");
        return;
      }
    }
    YAML::Node layer = new_layer(node, "activation", where);
    layer["function"] = activation_functions().at(node.op_type());
    emit(layer, node);
  }

  void convert_elementwise(const onnx::NodeProto& node, const std::string& where) {
    const bool constant_operand = std::any_of(node.input().begin(), node.input().end(),
                                              [&](const std::string& input) { return is_constant(input); });
    if (constant_operand) return alias(node, where);  // a bias or a scale folded into its producer
    emit(new_layer(node, node.op_type() == "Add" ? "add" : "mul", where), node);
  }

  void convert_flatten(const onnx::NodeProto& node, const std::string& where) {
    const auto found = inferred_.find(node.output(0));
    if (node.op_type() == "Reshape" && (found == inferred_.end() || found->second.size() > 2)) {
      unsupported_.push_back("Reshape to anything but a vector (" + where + ")");
      return;
    }
    alias(node, where);  // fc layers read their input as a vector already
  }

  void mark_batchnorm(const onnx::NodeProto& node, const std::string& where) {
    const std::string producer = layer_of(node.input(0), where);
    const auto found = index_of_.find(producer);
    if (found != index_of_.end()) {
      YAML::Node layer = layers_[found->second];
      const std::string op = layer["op"].as<std::string>();
      if (op == "conv" || op == "fc") layer["batchnorm"] = true;
    }
    alias(node, where);
  }

  void convert(const onnx::NodeProto& node, int index) {
    const std::string where = fmt::format("graph.node[{}] ({} '{}')", index, node.op_type(), node.name());
    const std::string& op = node.op_type();
    if (node.output_size() < 1) fail(path_, where, "has no output");
    if (op == "Conv") return convert_conv(node, where);
    if (op == "Gemm" || op == "MatMul") return convert_dense(node, where);
    if (op == "MaxPool" || op == "AveragePool") return convert_pool(node, where);
    if (op == "GlobalAveragePool" || op == "GlobalMaxPool") {
      return emit(new_layer(node, op == "GlobalAveragePool" ? "global_avgpool" : "global_maxpool", where), node);
    }
    if (op == "Add" || op == "Mul") return convert_elementwise(node, where);
    if (op == "Concat") {
      const std::int64_t axis = integer(node, "axis", 1);
      if (axis != 1 && axis != -3) fail(path_, where, "Concat is supported along channels (axis 1) only");
      return emit(new_layer(node, "concat", where), node);
    }
    if (activation_functions().count(op) > 0) return convert_activation(node, where);
    if (op == "Flatten" || op == "Reshape") return convert_flatten(node, where);
    if (op == "BatchNormalization") return mark_batchnorm(node, where);
    if (folded_operators().count(op) > 0) return alias(node, where);
    unsupported_.push_back(op + " (" + where + ")");
    // Later nodes may still read its output: map it through so every unsupported node gets reported.
    if (node.input_size() > 0 && producer_.count(node.input(0)) > 0)
      producer_[node.output(0)] = producer_[node.input(0)];
  }

  std::string path_;
  onnx::ModelProto model_;
  std::map<std::string, std::vector<std::int64_t>> constants_;
  std::map<std::string, std::vector<std::int64_t>> inferred_;
  std::map<std::string, std::string> producer_;  // tensor -> layer name
  std::map<std::string, std::size_t> index_of_;  // layer name -> position in layers_
  std::set<std::string> names_;
  std::vector<std::string> unsupported_;
  YAML::Node layers_{YAML::NodeType::Sequence};
  std::int64_t batch_ = 1;
};

// ONNX's own shape inference divides by strides, dilations and group without checking them (a zero stride
// is a SIGFPE inside libonnx), so window attributes are checked before it runs.
void check_window_attributes(const std::string& path, const onnx::GraphProto& graph) {
  const std::map<std::string, std::int64_t> minimum = {
      {"strides", 1}, {"dilations", 1}, {"kernel_shape", 1}, {"group", 1}, {"pads", 0}};
  for (int index = 0; index < graph.node_size(); ++index) {
    const onnx::NodeProto& node = graph.node(index);
    for (const onnx::AttributeProto& attribute : node.attribute()) {
      const auto rule = minimum.find(attribute.name());
      if (rule == minimum.end()) continue;
      std::vector<std::int64_t> values(attribute.ints().begin(), attribute.ints().end());
      if (attribute.has_i()) values.push_back(attribute.i());
      for (const std::int64_t value : values) {
        if (value < rule->second || value > (std::int64_t{1} << 31)) {
          fail(path, fmt::format("graph.node[{}] ({} '{}').{}", index, node.op_type(), node.name(), attribute.name()),
               fmt::format("must be between {} and 2^31 (got {})", rule->second, value));
        }
      }
    }
  }
}

// Runs ONNX's shape inference in a child process and copies its results (value_info, output types) back.
// libonnx's inference trusts the model: inconsistent ranks or attributes make it read out of bounds (found
// by fuzzing), so a crash there must end that child, not Ergon.
void infer_shapes_isolated(const std::string& path, onnx::ModelProto& model) {
  int channel[2];
  if (pipe(channel) != 0) throw std::runtime_error("cannot create a pipe for ONNX shape inference");
  const pid_t child = fork();
  if (child < 0) throw std::runtime_error("cannot fork for ONNX shape inference");
  if (child == 0) {
    close(channel[0]);
    // The child exists to contain a crash: default signal actions let it die quietly, without the crash
    // handlers a sanitizer or fuzzer installed in the parent reporting the library's fault as Ergon's.
    for (const int fatal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM}) std::signal(fatal, SIG_DFL);
    alarm(60);  // a hang in the library ends the child too
    std::string reply;
    try {
      onnx::shape_inference::InferShapes(model);
      onnx::GraphProto inferred;
      *inferred.mutable_value_info() = model.graph().value_info();
      *inferred.mutable_output() = model.graph().output();
      reply = "O" + inferred.SerializeAsString();
    } catch (const std::exception& error) {
      reply = std::string("E") + error.what();
    }
    for (std::size_t sent = 0; sent < reply.size();) {
      const ssize_t wrote = write(channel[1], reply.data() + sent, reply.size() - sent);
      if (wrote <= 0) _exit(1);
      sent += static_cast<std::size_t>(wrote);
    }
    _exit(0);
  }
  close(channel[1]);
  std::string reply;
  char buffer[65536];
  for (ssize_t got; (got = read(channel[0], buffer, sizeof buffer)) != 0;) {
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) break;
    reply.append(buffer, static_cast<std::size_t>(got));
  }
  close(channel[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status) || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || reply.empty()) {
    fail(path, "",
         fmt::format("ONNX's shape inference crashed on this model ({}); the model is inconsistent (check it with "
                     "onnx.checker.check_model(model, full_check=True))",
                     WIFSIGNALED(status) ? fmt::format("signal {}", WTERMSIG(status)) : std::string("no result")));
  }
  if (reply[0] == 'E') fail(path, "", "ONNX shape inference failed: " + reply.substr(1));
  onnx::GraphProto inferred;
  if (!inferred.ParseFromString(reply.substr(1))) fail(path, "", "ONNX shape inference returned no result");
  *model.mutable_graph()->mutable_value_info() = inferred.value_info();
  *model.mutable_graph()->mutable_output() = inferred.output();
}

onnx::ModelProto read_model(const std::string& path) {
  std::error_code status;
  if (!std::filesystem::is_regular_file(path, status)) fail(path, "", "not a regular file (does it exist?)");
  if (std::filesystem::file_size(path, status) == 0) fail(path, "", "the file is empty; expected an ONNX model");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "", "cannot open the file (is it readable?)");
  onnx::ModelProto model;
  if (!model.ParseFromIstream(&in)) {
    fail(path, "", "not an ONNX model (the protobuf does not parse; is the file complete, and a .onnx export?)");
  }
  if (!model.has_graph() || model.graph().node_size() == 0) fail(path, "graph", "the model has no nodes");
  check_window_attributes(path, model.graph());
  infer_shapes_isolated(path, model);
  return model;
}

}  // namespace

YAML::Node import_onnx(const std::string& path) {
  return Importer(path, read_model(path)).run();
}

Workload load_onnx_workload(const std::string& path) {
  Importer importer(path, read_model(path));
  const YAML::Node document = importer.run();
  Workload workload = parse_workload(document, path);
  std::map<std::string, const Layer*> by_name;
  for (const Layer& layer : workload.layers()) by_name[layer.name] = &layer;
  for (const auto& [tensor, layer_name] : importer.producers()) {
    const std::vector<std::int64_t> expected = importer.onnx_shape(tensor);
    const Layer* layer = by_name.at(layer_name);
    if (expected.empty()) continue;
    const TensorShape& ours = layer->output_shape;
    std::int64_t elements = 1;
    for (std::int64_t d : expected) elements *= d;
    const bool same = expected.size() == 3 ? TensorShape{expected[0], expected[1], expected[2]} == ours
                                           : elements == ours.elements();  // a flattened view of the producer's output
    if (!same) {
      fail(path, "tensor " + tensor,
           "Ergon infers " + ours.to_string() + " for layer '" + layer_name + "' but ONNX infers " +
               fmt::format("[{}]", fmt::join(expected, ", ")) + ": the import does not model this node faithfully");
    }
  }
  return workload;
}

std::string onnx_workload_yaml(const std::string& path) {
  YAML::Emitter out;
  out << import_onnx(path);
  return "# Imported from " + std::filesystem::path(path).filename().string() +
         " by `ergon import onnx` (docs/workloads.md).\n" + out.c_str() + "\n";
}

}  // namespace ergon
