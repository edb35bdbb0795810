#include "network/importers/onnx/onnx_lowering.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <numeric>
#include <set>
#include <stdexcept>

#include "common/input_error.hpp"
#include "common/text.hpp"
#include "network/importers/onnx/onnx_attributes.hpp"
#include "network/importers/onnx/onnx_node_macs.hpp"
#include "network/importers/onnx/onnx_shape_rules.hpp"
#include "network/layer.hpp"

namespace ergon {
namespace {

using Dims = std::vector<std::int64_t>;

[[noreturn]] void fail(const std::string& path, const std::string& where, const std::string& message) {
  throw InputError({path, 0, 0, {}}, where, message);
}

std::int64_t product(const Dims& dims, std::size_t from = 0, std::size_t to = SIZE_MAX) {
  std::int64_t p = 1;
  for (std::size_t i = from; i < std::min(to, dims.size()); ++i) p *= dims[i];
  return p;
}

// Functions applied as the producer's results are written back (Ergon's `activation`).
const std::map<std::string, std::string>& activation_functions() {
  static const std::map<std::string, std::string> functions = {
      {"Relu", "relu"},        {"LeakyRelu", "leaky_relu"}, {"Sigmoid", "sigmoid"},  {"Tanh", "tanh"},
      {"HardSwish", "hswish"}, {"HardSigmoid", "hsigmoid"}, {"Elu", "elu"},          {"Selu", "selu"},
      {"Celu", "elu"},         {"Softplus", "softplus"},    {"Gelu", "gelu"},        {"Mish", "mish"},
      {"PRelu", "prelu"},      {"ThresholdedRelu", "relu"}, {"Softsign", "softplus"}};
  return functions;
}

// onnxruntime's fused element-wise operators (domain com.microsoft), with their vector operations per
// element: the Gelus as the activation they compute (a bias input is added on the way); the normalisations
// as LayerNormalization's 5 (mean, variance, normalise, scale, shift) or RMS normalisation's 4 (square, mean,
// normalise, scale), after the skip's (and bias's) addition; rotary embedding's 3 (x cos + rotated x sin).
const std::set<std::string>& microsoft_gelus() {
  static const std::set<std::string> ops = {"FastGelu", "BiasGelu", "QuickGelu", "Gelu"};
  return ops;
}

// Element-wise arithmetic: one operation per output element per extra operand.
const std::set<std::string>& arithmetic_operators() {
  static const std::set<std::string> ops = {"Add",   "Sub",  "Mul",     "Div",         "Pow",
                                            "Max",   "Min",  "Sum",     "Mean",        "Mod",
                                            "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual",
                                            "And",   "Or",   "Xor",     "Where",       "BitShift"};
  return ops;
}

// Unary maths run on the vector unit: one operation per element.
const std::set<std::string>& unary_operators() {
  static const std::set<std::string> ops = {
      "Sqrt", "Exp",   "Log",   "Neg", "Abs",  "Reciprocal", "Erf",  "Floor", "Ceil", "Round", "Sin",   "Cos",  "Not",
      "Sign", "IsNaN", "IsInf", "Tan", "Atan", "Asin",       "Acos", "Sinh",  "Cosh", "Asinh", "Acosh", "Atanh"};
  return ops;
}

// Pure data movement: the tensor is re-arranged, selected or re-typed, never computed on.
const std::set<std::string>& layout_operators() {
  static const std::set<std::string> ops = {
      "Transpose",       "Reshape", "Flatten",         "Squeeze",         "Unsqueeze", "Identity",
      "Dropout",         "Cast",    "CastLike",        "Expand",          "Tile",      "DepthToSpace",
      "SpaceToDepth",    "Gather",  "GatherElements",  "GatherND",        "Slice",     "Pad",
      "Shape",           "Size",    "ConstantOfShape", "ReverseSequence", "Compress",  "ScatterND",
      "ScatterElements", "EyeLike"};
  return ops;
}

class Lowering {
 public:
  Lowering(std::string path, const PreparedOnnxGraph& graph, const OnnxImportOptions& options)
      : path_(std::move(path)), graph_(graph), options_(options) {}

  LoweredOnnx run() {
    const onnx::GraphProto& g = graph_.model.graph();
    batch_ = network_batch();
    for (const auto& node : g.node()) {
      for (const auto& input : node.input()) readers_of_[input].push_back(&node);
      for (const auto& output : node.output()) writer_of_[output] = &node;
    }
    for (const auto& input : g.input()) {
      if (graph_.constants.count(input.name()) > 0) continue;
      if (is_empty(input.name())) {
        result_.notes.push_back("input '" + input.name() + "' is empty (a 0-sized dimension): it holds no data");
        continue;
      }
      add_input(input.name());
    }
    for (int i = 0; i < g.node_size(); ++i) lower_node(g.node(i), i);
    report_unsupported();
    drop_unread_inputs();
    YAML::Node root;
    root["name"] = workload_name(g.name());
    const onnx::ModelProto& m = graph_.model;
    root["source"] =
        "imported from ONNX model " + std::filesystem::path(path_).filename().string() +
        (m.producer_name().empty() ? ""
                                   : " (produced by " + m.producer_name() +
                                         (m.producer_version().empty() ? "" : " " + m.producer_version()) + ")");
    if (batch_ > 1) root["batch"] = batch_;
    if (components() > 1) root["independent_layers"] = true;
    root["layers"] = layers_;
    if (!unsupported_.empty()) root["skipped_nodes"] = skipped_nodes_node();
    result_.document = root;
    return std::move(result_);
  }

 private:
  struct Value {
    std::string layer;
    TensorShape shape;
    // A zero Pad not applied yet: a consuming conv or pool takes it as its own padding.
    std::optional<Padding> pending_pad;
    std::string pad_node;
  };

  // The graph's name, unless it is empty or an exporter's placeholder: then the file's.
  std::string workload_name(const std::string& graph_name) const {
    static const std::set<std::string> placeholders = {
        "tf2onnx", "main_graph", "torch-jit-export",        "torch_jit", "torch-jit",
        "graph",   "model",      "Model from PaddlePaddle."};
    if (graph_name.empty() || placeholders.count(graph_name) > 0) return std::filesystem::path(path_).stem().string();
    return graph_name;
  }

  // ---- tensors ----

  std::int64_t network_batch() const {
    for (const auto& input : graph_.model.graph().input()) {
      if (graph_.constants.count(input.name()) > 0) continue;
      const auto found = graph_.shapes.find(input.name());
      const auto axis = graph_.batch_axes.find(input.name());
      if (found == graph_.shapes.end() || axis == graph_.batch_axes.end() || axis->second >= found->second.size()) {
        return 1;
      }
      return std::max<std::int64_t>(found->second[axis->second], 1);
    }
    return 1;
  }

  // One image's part of an ONNX shape as Ergon's [C, H, W].
  TensorShape canonical(Dims dims) const {
    if (dims.size() >= 2 && dims[0] % batch_ == 0) {
      dims[0] /= batch_;
      if (dims[0] == 1) dims.erase(dims.begin());
    }
    switch (dims.size()) {
      case 0: return {1, 1, 1};
      case 1: return {dims[0], 1, 1};
      case 2: return {dims[0], 1, dims[1]};
      case 3: return {dims[0], dims[1], dims[2]};
      default: return {dims[0], product(dims, 1, dims.size() - 1), dims.back()};
    }
  }

  const Dims& dims_of(const std::string& tensor, const std::string& where) const {
    const auto found = graph_.shapes.find(tensor);
    if (found == graph_.shapes.end()) {
      unsized_check(tensor);
      fail(path_, where,
           "ONNX's shape inference leaves tensor '" + tensor +
               "' without a static shape, so its layer cannot be sized; pin the inputs' dynamic dimensions with "
               "--input-shape");
    }
    return found->second;
  }

  TensorShape canonical_of(const std::string& tensor, const std::string& where) const {
    return canonical(dims_of(tensor, where));
  }

  bool is_constant(const std::string& tensor) const {
    return graph_.constants.count(tensor) > 0 || derived_constants_.count(tensor) > 0;
  }
  const OnnxConstant& constant(const std::string& tensor) const {
    const auto found = graph_.constants.find(tensor);
    return found != graph_.constants.end() ? found->second : derived_constants_.at(tensor);
  }

  // A tensor with a 0-sized dimension (an empty KV cache): it holds nothing to move or compute on.
  bool is_empty(const std::string& tensor) const {
    const auto found = graph_.shapes.find(tensor);
    return found != graph_.shapes.end() && product(found->second) == 0;
  }

  // The activation inputs of a node (constants, empty tensors and absent optional inputs left out).
  std::vector<std::string> activations(const onnx::NodeProto& node) const {
    std::vector<std::string> names;
    for (const auto& input : node.input()) {
      if (!input.empty() && !is_constant(input) && !is_empty(input)) names.push_back(input);
    }
    return names;
  }

  const Value& value_of(const std::string& tensor, const std::string& where) const {
    const auto found = values_.find(tensor);
    if (found == values_.end()) {
      unsized_check(tensor);
      fail(path_, where,
           "input tensor '" + tensor +
               "' has no layer: the node writing it was skipped, and ONNX's shape inference gives the tensor no "
               "static shape to stand in for it");
    }
    return found->second;
  }

  // A contradiction downstream of inputs the user pinned is most likely the pin's.
  std::string pinned_inputs_hint() const {
    std::vector<std::string> pins;
    for (const auto& [name, dims] : options_.input_shapes)
      pins.push_back(fmt::format("{}={}", name, fmt::join(dims, "x")));
    if (pins.empty()) return "";
    return fmt::format(" (the inputs are pinned by --input-shape {}: does that match the model?)",
                       fmt::join(pins, " --input-shape "));
  }

  // ---- layers ----

  std::string unique_name(const std::string& wanted) {
    std::string name = wanted.empty() ? "layer" : wanted;
    for (int suffix = 2; !names_.insert(name).second; ++suffix) name = wanted + "_" + std::to_string(suffix);
    return name;
  }

  static YAML::Node shape_node(const TensorShape& shape) {
    YAML::Node node(YAML::NodeType::Sequence);
    node.SetStyle(YAML::EmitterStyle::Flow);
    node.push_back(shape.channels);
    node.push_back(shape.height);
    node.push_back(shape.width);
    return node;
  }

  static YAML::Node pair_node(std::int64_t a, std::int64_t b) {
    YAML::Node node(YAML::NodeType::Sequence);
    node.SetStyle(YAML::EmitterStyle::Flow);
    node.push_back(a);
    node.push_back(b);
    return node;
  }

  YAML::Node new_layer(const std::string& wanted, const std::string& op, const std::vector<std::string>& inputs) {
    YAML::Node layer;
    layer["name"] = unique_name(wanted);
    layer["op"] = op;
    if (!inputs.empty()) {
      YAML::Node list(YAML::NodeType::Sequence);
      list.SetStyle(YAML::EmitterStyle::Flow);
      for (const auto& input : inputs) list.push_back(input);
      layer["inputs"] = list;
    }
    return layer;
  }

  std::string emit(YAML::Node layer, const TensorShape& shape) {
    const std::string name = layer["name"].as<std::string>();
    layer_shapes_[name] = shape;
    layer_index_[name] = layers_.size();
    for (const auto& input : layer["inputs"]) readers_[input.as<std::string>()].push_back(name);
    layers_.push_back(layer);
    return name;
  }

  // bind(), returning the layer.
  std::string bind_layer(const std::string& tensor, const std::string& layer) {
    bind(tensor, layer);
    return layer;
  }

  void bind(const std::string& tensor, const std::string& layer) {
    values_[tensor] = Value{layer, layer_shapes_.at(layer), std::nullopt, {}};
    const auto shape = graph_.shapes.find(tensor);
    if (shape != graph_.shapes.end()) result_.tensor_layers[tensor] = {layer, canonical(shape->second).elements()};
  }

  // `tensor` as a layer whose output is `wanted` (same elements): its producer, or a free layout after it.
  std::string need(const std::string& tensor, const TensorShape& wanted, const std::string& where) {
    const Value value = materialized(tensor, where);
    return as_shape(value.layer, wanted, "tensor '" + tensor + "'", where);
  }

  // `layer`'s output (`what`, for errors) as `wanted`: the layer itself, or a free layout after it.
  std::string as_shape(const std::string& layer, const TensorShape& wanted, const std::string& what,
                       const std::string& where) {
    const TensorShape& shape = layer_shapes_.at(layer);
    if (shape == wanted) return layer;
    if (shape.elements() != wanted.elements()) {
      fail(path_, where,
           fmt::format("{} holds {} elements per image, the layer reading it needs {} ({}); the model's "
                       "shapes are inconsistent with this lowering{}",
                       what, shape.elements(), wanted.elements(), wanted.to_string(), pinned_inputs_hint()));
    }
    const std::string key = layer + "->" + wanted.to_string();
    const auto cached = rearranged_.find(key);
    if (cached != rearranged_.end()) return cached->second;
    YAML::Node layout = new_layer(layer + "/as_" + shape_label(wanted), "layout", {layer});
    layout["shape"] = shape_node(wanted);
    layout["transform"] = "rearrange";
    const std::string name = emit(layout, wanted);
    rearranged_[key] = name;
    return name;
  }

  static std::string shape_label(const TensorShape& s) {
    return fmt::format("{}x{}x{}", s.channels, s.height, s.width);
  }

  // The tensor with any pending Pad applied as a layout layer.
  Value materialized(const std::string& tensor, const std::string& where) {
    Value value = value_of(tensor, where);
    if (!value.pending_pad) return value;
    YAML::Node layout = new_layer(value.pad_node, "layout", {value.layer});
    const Padding& p = *value.pending_pad;
    const TensorShape padded{value.shape.channels, value.shape.height + p.top + p.bottom,
                             value.shape.width + p.left + p.right};
    layout["shape"] = shape_node(padded);
    layout["transform"] = "pad";
    const std::string name = emit(layout, padded);
    values_[tensor] = Value{name, padded, std::nullopt, {}};
    return values_[tensor];
  }

  void add_input(const std::string& name) {
    const std::string where = "graph.input " + name;
    const TensorShape shape = canonical_of(name, where);
    YAML::Node layer = new_layer(name, "input", {});
    layer["shape"] = shape_node(shape);
    bind(name, emit(layer, shape));
  }

  // ---- attributes ----

  static const onnx::AttributeProto* attribute(const onnx::NodeProto& node, const std::string& name) {
    return find_attribute(node, name);
  }
  static Dims ints(const onnx::NodeProto& node, const std::string& name, Dims fallback) {
    const auto* a = attribute(node, name);
    return a == nullptr ? fallback : Dims(a->ints().begin(), a->ints().end());
  }
  static std::int64_t integer(const onnx::NodeProto& node, const std::string& name, std::int64_t fallback) {
    const auto* a = attribute(node, name);
    return a == nullptr ? fallback : a->i();
  }
  static std::string text(const onnx::NodeProto& node, const std::string& name, const std::string& fallback) {
    const auto* a = attribute(node, name);
    return a == nullptr ? fallback : a->s();
  }
  static float real(const onnx::NodeProto& node, const std::string& name, float fallback) {
    const auto* a = attribute(node, name);
    return a == nullptr ? fallback : a->f();
  }

  // A constant int-list input, or the attribute of older opsets.
  std::optional<Dims> list_input(const onnx::NodeProto& node, int index, const std::string& attribute_name) const {
    if (index < node.input_size() && !node.input(index).empty() && is_constant(node.input(index))) {
      return constant(node.input(index)).as_ints();
    }
    if (attribute(node, attribute_name) != nullptr) return ints(node, attribute_name, {});
    return std::nullopt;
  }

  // ---- windows ----

  struct WindowSpec {
    Dims kernel, strides, dilations;
    Padding padding;  // explicit sides, or same
  };

  // Kernel, strides, dilations and padding of a 1-D or 2-D conv or pool, as Ergon's 2-D window (a 1-D window
  // is 1 x k over the [C, 1, L] tensor).
  WindowSpec window(const onnx::NodeProto& node, const Dims& kernel_fallback, const Dims& input_dims,
                    const std::string& where) {
    const std::size_t rank = kernel_fallback.empty() ? ints(node, "kernel_shape", {}).size() : kernel_fallback.size();
    WindowSpec spec;
    spec.kernel = ints(node, "kernel_shape", kernel_fallback);
    if (rank < 1 || rank > 2 || spec.kernel.size() != rank) {
      unsupported(node, where, fmt::format("{}-D window", spec.kernel.size()));
      throw Skip{};
    }
    spec.strides = ints(node, "strides", Dims(rank, 1));
    spec.dilations = ints(node, "dilations", Dims(rank, 1));
    Dims pads = ints(node, "pads", Dims(2 * rank, 0));
    if (spec.strides.size() != rank || spec.dilations.size() != rank || pads.size() != 2 * rank) {
      fail(path_, where, fmt::format("strides, dilations and pads must have {} and {} values", rank, 2 * rank));
    }
    const std::string auto_pad = text(node, "auto_pad", "NOTSET");
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      for (std::size_t i = 0; i < rank; ++i) {  // ONNX: total = max((ceil(L/s) - 1) s + d (k-1) + 1 - L, 0)
        const std::int64_t length = input_dims.at(input_dims.size() - rank + i);
        const std::int64_t out = (length + spec.strides[i] - 1) / spec.strides[i];
        const std::int64_t total = std::max<std::int64_t>(
            (out - 1) * spec.strides[i] + spec.dilations[i] * (spec.kernel[i] - 1) + 1 - length, 0);
        const std::int64_t small = total / 2, large = total - small;
        pads[i] = auto_pad == "SAME_UPPER" ? small : large;
        pads[i + rank] = total - pads[i];
      }
    } else if (auto_pad == "VALID") {
      std::fill(pads.begin(), pads.end(), 0);
    } else if (auto_pad != "NOTSET") {
      fail(path_, where + ".auto_pad", "unknown auto_pad '" + auto_pad + "'");
    }
    if (rank == 1) {
      spec.kernel.insert(spec.kernel.begin(), 1);
      spec.strides.insert(spec.strides.begin(), 1);
      spec.dilations.insert(spec.dilations.begin(), 1);
      spec.padding = Padding{0, 0, pads[0], pads[1], false};
    } else {
      spec.padding = Padding{pads[0], pads[2], pads[1], pads[3], false};
    }
    return spec;
  }

  static void write_window(YAML::Node& layer, const WindowSpec& spec) {
    layer["kernel"] = pair_node(spec.kernel[0], spec.kernel[1]);
    layer["stride"] = pair_node(spec.strides[0], spec.strides[1]);
    YAML::Node padding(YAML::NodeType::Sequence);
    padding.SetStyle(YAML::EmitterStyle::Flow);
    for (const std::int64_t p : {spec.padding.top, spec.padding.bottom, spec.padding.left, spec.padding.right}) {
      padding.push_back(p);
    }
    layer["padding"] = padding;
    if (spec.dilations[0] != 1 || spec.dilations[1] != 1)
      layer["dilation"] = pair_node(spec.dilations[0], spec.dilations[1]);
  }

  // The window's input: the tensor as [C, H, W], with a pending zero Pad taken into the window's padding
  // when `absorb` allows it.
  std::string window_input(const std::string& tensor, WindowSpec& spec, bool pool, const std::string& where) {
    const Value& value = value_of(tensor, where);
    if (value.pending_pad) {
      Padding merged = spec.padding;
      const Padding& p = *value.pending_pad;
      merged.top += p.top;
      merged.bottom += p.bottom;
      merged.left += p.left;
      merged.right += p.right;
      const bool fits = !pool || (std::max(merged.top, merged.bottom) <= spec.kernel[0] / 2 &&
                                  std::max(merged.left, merged.right) <= spec.kernel[1] / 2);
      if (fits) {
        spec.padding = merged;
        return value.layer;  // a pending pad is only recorded on a [C, H, W] producer output
      }
    }
    return need(tensor, canonical_of(tensor, where), where);
  }

  // ---- operators ----

  struct Skip {};
  // A node reads a tensor an unsupported node left without a shape: it cannot be sized either.
  struct UnsizedInput {
    std::string tensor, origin;  // origin: the unsupported node it comes from
  };
  void unsized_check(const std::string& tensor) const {
    const auto unsized = unsized_.find(tensor);
    if (unsized != unsized_.end()) throw UnsizedInput{tensor, unsized->second};
  }

  void unsupported(const onnx::NodeProto& node, const std::string& where, const std::string& why) {
    unsupported_.push_back(
        {node.op_type(), where, why, node_label(node, node.output(0)), onnx_node_macs(node, graph_.shapes, batch_)});
  }

  // An If left in the graph: its condition did not fold.
  void lower_if(const onnx::NodeProto& node, const std::string& where) {
    for (const UndecidedIf& pending : graph_.undecided_ifs) {
      if (pending.key == node.output(0)) return unsupported(node, where, pending.advice());
    }
    unsupported(node, where, "its condition is computed at run time");
  }

  // Outputs of a node Ergon cannot lower: a free layout (or, without activation inputs, an intermediate
  // input), so later nodes still import and every unsupported node is reported at once.
  // Outputs no shape inference sizes stay unsized, remembered with the unsupported node they come from
  // (`origin`: this node, or the one upstream whose unsized output it read).
  void pass_through(const onnx::NodeProto& node, const std::string& where, const std::string& origin) {
    std::vector<std::string> layers;
    for (const auto& input : activations(node)) {
      if (unsized_.count(input) == 0) layers.push_back(materialized(input, where).layer);
    }
    for (const auto& output : node.output()) {
      if (output.empty()) continue;
      if (graph_.shapes.count(output) == 0) {
        unsized_[output] = origin;
        continue;
      }
      const TensorShape shape = canonical_of(output, where);
      YAML::Node layer;
      if (layers.empty()) {
        layer = new_layer(output, "input", {});
        layer["intermediate"] = true;
      } else {
        layer = new_layer(node_label(node, output), "layout", layers);
        layer["transform"] = "skipped " + node.op_type();
      }
      layer["shape"] = shape_node(shape);
      bind(output, emit(layer, shape));
    }
  }

  static std::string node_label(const onnx::NodeProto& node, const std::string& output) {
    return node.name().empty() ? output : node.name();
  }

  void lower_node(const onnx::NodeProto& node, int index) {
    const std::string where = fmt::format("graph.node[{}] ({} '{}')", index, node.op_type(), node.name());
    if (node.output_size() < 1) fail(path_, where, "has no output");
    const std::vector<std::string> inputs = activations(node);
    if (inputs.empty()) return constant_only(node);
    const std::size_t before = unsupported_.size();
    std::string origin = fmt::format("'{}' ({})", node_label(node, node.output(0)), node.op_type());
    try {
      for (const std::string& input : inputs) unsized_check(input);
      if (node.domain() == "com.microsoft") {
        dispatch_microsoft(node, where);
      } else if (!(node.domain().empty() || node.domain() == "ai.onnx")) {
        unsupported(node, where, "operator of domain " + node.domain());
      } else {
        dispatch(node, where);
      }
    } catch (const Skip&) {
    } catch (const UnsizedInput& unsized) {
      unsupported(
          node, where,
          fmt::format("reads '{}', which unsupported node {} leaves without a shape", unsized.tensor, unsized.origin));
      origin = unsized.origin;
    }
    if (unsupported_.size() > before) pass_through(node, where, origin);
  }

  // A node of constants only that folding left (weights without values through an operator the folder does
  // not evaluate): its outputs are constants too.
  void constant_only(const onnx::NodeProto& node) {
    if (auto note = folded_compute_note(node, graph_.shapes)) result_.notes.push_back(*note);
    for (const auto& output : node.output()) {
      if (output.empty()) continue;
      OnnxConstant c;
      const auto shape = graph_.shapes.find(output);
      if (shape != graph_.shapes.end()) c.dims = shape->second;
      derived_constants_[output] = c;
    }
  }

  void dispatch(const onnx::NodeProto& node, const std::string& where) {
    const std::string& op = node.op_type();
    if (op == "Conv" || op == "ConvInteger" || op == "QLinearConv") {
      lower_conv(op == "Conv" ? node : as_float_operator(node), where);
      return record_operand_widths(node);
    }
    if (op == "Gemm" || op == "MatMul" || op == "MatMulInteger" || op == "QLinearMatMul") {
      lower_gemm(op == "Gemm" || op == "MatMul" ? node : as_float_operator(node), where);
      return record_operand_widths(node);
    }
    if (op == "DynamicQuantizeLinear") return lower_dynamic_quantize(node, where);
    if (op == "QuantizeLinear" || op == "DequantizeLinear") return lower_quantize(node, where);
    if (op == "ConvTranspose") return lower_conv_transpose(node, where);
    if (op == "Attention") return lower_attention(node, where);
    if (op == "Einsum") return lower_einsum(node, where);
    if (op == "TopK") return lower_top_k(node, where);
    if (op == "NonMaxSuppression") return lower_non_max_suppression(node, where);
    if (op == "MaxPool" || op == "AveragePool" || op == "LpPool") return lower_pool(node, where);
    if (op == "GlobalAveragePool" || op == "GlobalMaxPool" || op == "GlobalLpPool")
      return lower_global_pool(node, where);
    if (activation_functions().count(op) > 0 || op == "Clip") return lower_activation(node, where);
    if (op == "Softmax" || op == "LogSoftmax") return lower_elementwise(node, "softmax", 3.0, where);
    if (arithmetic_operators().count(op) > 0) return lower_arithmetic(node, where);
    if (unary_operators().count(op) > 0) return lower_elementwise(node, ascii_lower(op), 1.0, where);
    if (op == "BatchNormalization") return lower_batchnorm(node, where);
    if (op == "InstanceNormalization" || op == "LayerNormalization" || op == "GroupNormalization") {
      return lower_elementwise(node, ascii_lower(op), 5.0, where);  // mean, variance, normalise, scale, shift
    }
    // onnxruntime registers SimplifiedLayerNormalization (RMS) in the default domain, where its tools write it.
    if (op == "RMSNormalization" || op == "SimplifiedLayerNormalization") {
      return lower_elementwise(node, "rmsnormalization", 4.0, where);
    }
    if (op == "RotaryEmbedding") return lower_vector_on_first(node, "rotary_embedding", 3.0, where);
    if (op == "LRN") return lower_elementwise(node, "lrn", static_cast<double>(integer(node, "size", 1)) + 3.0, where);
    if (op.rfind("Reduce", 0) == 0 || op == "ArgMax" || op == "ArgMin") return lower_reduce(node, where);
    if (op == "Concat") return lower_concat(node, where);
    if (op == "Split") return lower_split(node, where);
    if (op == "Pad") return lower_pad(node, where);
    if (op == "Resize" || op == "Upsample") return lower_resize(node, where);
    if (op == "LSTM" || op == "GRU" || op == "RNN") return lower_recurrent(node, where);
    if (op == "If") return lower_if(node, where);
    if (op == "Loop")
      return unsupported(node, where, "its trip count is computed at run time; give it with --loop-trips N");
    if (layout_operators().count(op) > 0) return lower_layout(node, ascii_lower(op), where);
    unsupported(node, where, "");
  }

  // The integer widths a quantised conv or product computes at (docs/workloads.md, "Operand widths"): its
  // own operands' types (QLinearConv, ConvInteger, ...), or, in a QDQ model, the integers the
  // DequantizeLinear outputs it reads hold; integer products accumulate in 32 bits.
  void record_operand_widths(const onnx::NodeProto& node) {
    const std::string& op = node.op_type();
    const bool qdq = op == "Conv" || op == "MatMul" || op == "Gemm";
    const int weights_input = op.rfind("QLinear", 0) == 0 ? 3 : 1;
    const auto bits = [&](int input) {
      if (input >= node.input_size()) return 0;
      if (!qdq) return quantised_type_bits(element_type(node.input(input)));
      const auto found = graph_.quantised_bits.find(node.input(input));
      return found == graph_.quantised_bits.end() ? 0 : found->second;
    };
    const int activation = bits(0), weight = bits(weights_input);
    const auto value = values_.find(node.output(0));
    if ((activation == 0 && weight == 0) || value == values_.end()) return;
    YAML::Node layer = layers_[layer_index_.at(value->second.layer)];
    if (activation > 0) layer["activation_bits"] = activation;
    if (weight > 0) layer["weight_bits"] = weight;
    layer["accumulator_bits"] = 32;
  }

  // A tensor's element type as the prepared model records it (float when it records none).
  std::int32_t element_type(const std::string& tensor) const {
    return is_constant(tensor) ? constant(tensor).data_type : declared_element_type(graph_.model.graph(), tensor);
  }

  // A quantised convolution or product as the one it computes: the data and the weights (and
  // QLinearConv's int32 bias), without the scales and zero points, which the producer applies as it writes
  // back (requantisation).
  static onnx::NodeProto as_float_operator(const onnx::NodeProto& node) {
    const std::string& op = node.op_type();
    const bool qlinear = op.rfind("QLinear", 0) == 0;
    onnx::NodeProto plain = node;
    plain.clear_input();
    plain.add_input(node.input(0));
    plain.add_input(node.input_size() > (qlinear ? 3 : 1) ? node.input(qlinear ? 3 : 1) : "");
    if (op == "QLinearConv" && node.input_size() > 8 && !node.input(8).empty()) plain.add_input(node.input(8));
    plain.set_op_type(op.find("Conv") != std::string::npos ? "Conv" : "MatMul");
    return plain;
  }

  // QuantizeLinear and DequantizeLinear are free where an integer engine needs no conversion, in a QDQ unit
  // (onnxruntime's quantize_static): a DequantizeLinear read by products or by operators whose results
  // are quantised again, a QuantizeLinear of a product's results (requantised on write-back) or of such an
  // operator's. Elsewhere (the float input quantised, the output dequantised) they are vector work: 3
  // operations per element to quantise (scale, round, saturate), 2 to dequantise (offset, scale).
  void lower_quantize(const onnx::NodeProto& node, const std::string& where) {
    const bool quantize = node.op_type() == "QuantizeLinear";
    if (quantize ? requantised_on_write_back(node) : read_as_integers(node)) {
      return lower_layout(node, ascii_lower(node.op_type()), where);
    }
    lower_elementwise(node, quantize ? "quantize" : "dequantize", quantize ? 3.0 : 2.0, where);
  }

  static bool is_product(const onnx::NodeProto& node) {
    const std::string& op = node.op_type();
    return op == "Conv" || op == "ConvTranspose" || op == "MatMul" || op == "Gemm";
  }

  const std::vector<const onnx::NodeProto*>& readers_of(const std::string& tensor) const {
    static const std::vector<const onnx::NodeProto*> none;
    const auto found = readers_of_.find(tensor);
    return found == readers_of_.end() ? none : found->second;
  }

  // Every output of `node` is read, and only by QuantizeLinear nodes.
  bool quantised_again(const onnx::NodeProto& node) const {
    for (const auto& output : node.output()) {
      const auto& readers = readers_of(output);
      if (readers.empty()) return false;
      for (const auto* reader : readers) {
        if (reader->op_type() != "QuantizeLinear") return false;
      }
    }
    return node.output_size() > 0;
  }

  bool read_as_integers(const onnx::NodeProto& dequantize) const {
    const auto& readers = readers_of(dequantize.output(0));
    return !readers.empty() && std::all_of(readers.begin(), readers.end(), [this](const onnx::NodeProto* reader) {
      return is_product(*reader) || quantised_again(*reader);
    });
  }

  bool requantised_on_write_back(const onnx::NodeProto& quantize) const {
    const auto writer = writer_of_.find(quantize.input(0));
    if (writer == writer_of_.end()) return false;  // a graph input: quantised here
    const onnx::NodeProto& producer = *writer->second;
    if (is_product(producer)) return true;
    std::size_t dequantised = 0, activations = 0;
    for (const auto& input : producer.input()) {
      if (input.empty() || is_constant(input)) continue;
      ++activations;
      const auto source = writer_of_.find(input);
      dequantised += source != writer_of_.end() && source->second->op_type() == "DequantizeLinear" ? 1 : 0;
    }
    return activations > 0 && dequantised == activations;
  }

  // DynamicQuantizeLinear: the input's range (min and max), then each element scaled, rounded and saturated
  // (4 operations per element); its scale and zero point are scalars the consumers fold in as constants.
  void lower_dynamic_quantize(const onnx::NodeProto& node, const std::string& where) {
    lower_elementwise(node, "dynamic_quantize", 4.0, where);
    for (int o = 1; o < node.output_size(); ++o) {
      if (node.output(o).empty()) continue;
      OnnxConstant scalar;
      scalar.data_type = o == 1 ? onnx::TensorProto::FLOAT : onnx::TensorProto::UINT8;
      derived_constants_[node.output(o)] = scalar;
    }
  }

  // The com.microsoft operators Ergon lowers; the rest are unsupported, listed like any other.
  void dispatch_microsoft(const onnx::NodeProto& node, const std::string& where) {
    const std::string& op = node.op_type();
    if (microsoft_gelus().count(op) > 0) {
      const TensorShape shape = canonical_of(node.output(0), where);
      YAML::Node layer = new_layer(node_label(node, node.output(0)), "activation", {need(node.input(0), shape, where)});
      layer["function"] = "gelu";
      return bind(node.output(0), emit(layer, shape));
    }
    if (op == "BiasAdd") return lower_elementwise(node, "add", 2.0, where);  // input + bias + skip
    if (op == "SimplifiedLayerNormalization") return lower_elementwise(node, "rmsnormalization", 4.0, where);
    if (op == "SkipLayerNormalization") return lower_skip_normalization(node, "layernormalization", 5.0, where);
    if (op == "SkipSimplifiedLayerNormalization") {
      return lower_skip_normalization(node, "rmsnormalization", 4.0, where);
    }
    if (op == "RotaryEmbedding") return lower_vector_on_first(node, "rotary_embedding", 3.0, where);
    if (is_attention_operator(node)) return lower_attention(node, where);
    if (op == "EmbedLayerNormalization") return lower_embed_layer_normalization(node, where);
    if (op == "MatMulNBits") return lower_matmul_n_bits(node, where);
    unsupported(node, where, "operator of domain com.microsoft");
  }

  // input + skip (+ bias), kept as output 3 when the graph reads it, then the normalisation as output 0.
  void lower_skip_normalization(const onnx::NodeProto& node, const std::string& normalization, double operations,
                                const std::string& where) {
    const TensorShape shape = canonical_of(node.output(0), where);
    std::vector<std::string> inputs;
    for (int i = 0; i < std::min(node.input_size(), 2); ++i) {
      if (!node.input(i).empty() && !is_constant(node.input(i))) inputs.push_back(need(node.input(i), shape, where));
    }
    const bool biased = node.input_size() > 4 && !node.input(4).empty();
    const std::string sum_name =
        node.output_size() > 3 && !node.output(3).empty() ? node.output(3) : node_label(node, node.output(0)) + "/sum";
    YAML::Node sum = new_layer(sum_name, "elementwise", inputs);
    sum["function"] = "add";
    if (biased) sum["operations_per_element"] = 2.0;
    sum["shape"] = shape_node(shape);
    const std::string sum_layer = emit(sum, shape);
    if (node.output_size() > 3 && !node.output(3).empty()) bind(node.output(3), sum_layer);
    YAML::Node norm = new_layer(node_label(node, node.output(0)), "elementwise", {sum_layer});
    norm["function"] = normalization;
    norm["operations_per_element"] = operations;
    norm["shape"] = shape_node(shape);
    bind(node.output(0), emit(norm, shape));
  }

  // Vector work on the first input only (the others are positions and tables it indexes).
  void lower_vector_on_first(const onnx::NodeProto& node, const std::string& function, double operations,
                             const std::string& where) {
    const TensorShape shape = canonical_of(node.output(0), where);
    YAML::Node layer = new_layer(node_label(node, node.output(0)), "elementwise", {need(node.input(0), shape, where)});
    layer["function"] = function;
    layer["operations_per_element"] = operations;
    layer["shape"] = shape_node(shape);
    bind(node.output(0), emit(layer, shape));
  }

  // ---- attention ----

  OnnxShapeLookup shape_lookup() const {
    return {[this](const std::string& tensor) -> const OnnxDims* {
              const auto found = graph_.shapes.find(tensor);
              return found == graph_.shapes.end() ? nullptr : &found->second;
            },
            [this](const std::string& tensor) -> const OnnxConstant* {
              return is_constant(tensor) ? &constant(tensor) : nullptr;
            }};
  }

  AttentionGeometry attention_of(const onnx::NodeProto& node, const std::string& where) {
    std::optional<AttentionGeometry> g;
    try {
      g = attention_geometry(node, shape_lookup());
    } catch (const std::invalid_argument& contradiction) {
      fail(path_, where, std::string(contradiction.what()) + pinned_inputs_hint());
    }
    if (!g) {
      for (const auto& input : activations(node)) dims_of(input, where);  // names the unsized input
      fail(path_, where, "its inputs' shapes do not size it");
    }
    if (g->batch % batch_ != 0) {
      unsupported(node, where, fmt::format("its batch ({}) is not a multiple of the network's ({})", g->batch, batch_));
      throw Skip{};
    }
    return *g;
  }

  // The query, key and value layers of this step (keys and values of the new positions only).
  struct AttentionOperands {
    std::string query, keys, values;
  };

  std::string channel_slice(const std::string& layer, std::int64_t begin, std::int64_t end, const std::string& name) {
    const TensorShape& in = layer_shapes_.at(layer);
    YAML::Node slice = new_layer(name, "slice", {layer});
    slice["channels"] = pair_node(begin, end);
    return emit(slice, TensorShape{end - begin, in.height, in.width});
  }

  // Query, keys and values side by side in one layer of `rows` rows: three channel slices of it.
  AttentionOperands split_packed(const std::string& packed, const AttentionGeometry& g, const std::string& name) {
    const std::int64_t q = g.heads * g.head_size, k = g.kv_heads * g.head_size, v = g.kv_heads * g.value_head_size;
    return {channel_slice(packed, 0, q, name + "/query"), channel_slice(packed, q, q + k, name + "/keys_new"),
            channel_slice(packed, q + k, q + k + v, name + "/values_new")};
  }

  AttentionOperands attention_operands(const onnx::NodeProto& node, const AttentionGeometry& g, const std::string& name,
                                       const std::string& where) {
    const std::int64_t items = g.batch / batch_;
    const std::int64_t q = g.heads * g.head_size, k = g.kv_heads * g.head_size, v = g.kv_heads * g.value_head_size;
    switch (g.source) {
      case AttentionSource::kProjected: {  // one 1x1 convolution projects every token to q + k + v
        YAML::Node conv =
            new_layer(name + "/qkv", "conv", {need(node.input(0), TensorShape{g.hidden, g.queries * items, 1}, where)});
        conv["filters"] = q + k + v;
        conv["kernel"] = 1;
        conv["bias"] = node.input_size() > 2 && !node.input(2).empty();
        conv["comment"] = "Attention's query, key and value projection";
        return split_packed(emit(conv, TensorShape{q + k + v, g.queries * items, 1}), g, name);
      }
      case AttentionSource::kPackedQkv:
        return split_packed(need(node.input(0), TensorShape{q + k + v, g.queries * items, 1}, where), g, name);
      case AttentionSource::kPackedKv: {
        const std::string kv = need(node.input(1), TensorShape{k + v, g.added * items, 1}, where);
        return {materialized(node.input(0), where).layer, channel_slice(kv, 0, k, name + "/keys_new"),
                channel_slice(kv, k, k + v, name + "/values_new")};
      }
      case AttentionSource::kSeparate: break;
    }
    return {materialized(node.input(0), where).layer, materialized(node.input(1), where).layer,
            materialized(node.input(2), where).layer};
  }

  // The new keys (or values) after the cached ones: `size` channels per head over `total` positions.
  std::string with_past(const onnx::NodeProto& node, const AttentionGeometry& g, int past_input,
                        const std::string& added, std::int64_t size, const std::string& name,
                        const std::string& where) {
    const TensorShape whole{g.kv_heads * (g.batch / batch_) * size, g.total, 1};
    std::vector<std::string> parts;
    if (g.past > 0 && past_input >= 0 && !is_constant(node.input(past_input)) && !is_empty(node.input(past_input))) {
      parts.push_back(materialized(node.input(past_input), where).layer);
    }
    parts.push_back(added);
    if (parts.size() == 1 && layer_shapes_.at(added).elements() == whole.elements()) return added;
    YAML::Node layout = new_layer(name, "layout", parts);
    layout["shape"] = shape_node(whole);
    layout["transform"] = parts.size() > 1 ? "append to cache" : "cache window";
    return emit(layout, whole);
  }

  // Attention as Ergon runs it: the scores Q K^T and the context softmax(scores) V as matmul layers, one
  // group per key head (a grouped-query head's queries share its keys and values) and batch item.
  void lower_attention(const onnx::NodeProto& node, const std::string& where) {
    const AttentionGeometry g = attention_of(node, where);
    const std::string name = node_label(node, node.output(0));
    AttentionOperands operands = attention_operands(node, g, name, where);
    const std::int64_t groups = g.kv_heads * (g.batch / batch_);
    const std::int64_t rows = g.queries * (g.heads / g.kv_heads);
    if (g.rotary) {
      operands.query = rotated(operands.query, name + "/query_rotary");
      operands.keys = rotated(operands.keys, name + "/keys_rotary");
    }
    const int past_values = g.past_is_stacked ? g.past_key_input : g.past_value_input;
    const std::string keys = with_past(node, g, g.past_key_input, operands.keys, g.head_size, name + "/keys", where);
    const std::string values =
        with_past(node, g, past_values, operands.values, g.value_head_size, name + "/values", where);
    const std::string query =
        as_shape(operands.query, TensorShape{groups * g.head_size, rows, 1}, "the query of " + name, where);
    YAML::Node scores = new_layer(name + "/scores", "matmul", {query, keys});
    scores["outputs"] = g.total;
    if (groups != 1) scores["groups"] = groups;
    const std::string scores_layer = emit(scores, TensorShape{groups * g.total, rows, 1});
    std::vector<std::string> softmax_inputs{scores_layer};
    for (const auto& mask : attention_masks(node, g)) softmax_inputs.push_back(materialized(mask, where).layer);
    YAML::Node softmax = new_layer(name + "/softmax", "elementwise", softmax_inputs);
    softmax["function"] = "softmax";
    softmax["operations_per_element"] = g.masked ? 5.0 : 4.0;  // scale (and mask), then softmax's 3
    softmax["shape"] = shape_node(TensorShape{groups * g.total, rows, 1});
    const std::string weights = emit(softmax, TensorShape{groups * g.total, rows, 1});
    YAML::Node context = new_layer(name, "matmul", {weights, values});
    context["outputs"] = g.value_head_size;
    if (groups != 1) context["groups"] = groups;
    bind(node.output(0), emit(context, TensorShape{groups * g.value_head_size, rows, 1}));
    bind_present(node, g.past_is_stacked ? std::vector<std::string>{keys, values} : std::vector<std::string>{keys}, 1,
                 where);
    if (!g.past_is_stacked) bind_present(node, {values}, 2, where);
    if (node.output_size() > 3) bind_present(node, {scores_layer}, 3, where);
  }

  std::string rotated(const std::string& layer, const std::string& name) {
    YAML::Node rotary = new_layer(name, "elementwise", {layer});
    rotary["function"] = "rotary_embedding";
    rotary["operations_per_element"] = 3.0;
    rotary["shape"] = shape_node(layer_shapes_.at(layer));
    return emit(rotary, layer_shapes_.at(layer));
  }

  // The activation masks and biases added to an attention node's scores.
  std::vector<std::string> attention_masks(const onnx::NodeProto& node, const AttentionGeometry& g) const {
    std::vector<int> indices;
    if (node.domain() != "com.microsoft") {
      indices = {3};
    } else if (node.op_type() == "Attention") {
      indices = {3, 5};
    } else if (node.op_type() == "MultiHeadAttention") {
      indices = {4, 5};
    }
    std::vector<std::string> masks;
    for (const int i : indices) {
      if (g.masked && i < node.input_size() && !node.input(i).empty() && !is_constant(node.input(i)) &&
          !is_empty(node.input(i))) {
        masks.push_back(node.input(i));
      }
    }
    return masks;
  }

  // An output the graph reads (a present cache, the scores) as a free layout of `layers`.
  void bind_present(const onnx::NodeProto& node, const std::vector<std::string>& layers, int output,
                    const std::string& where) {
    if (output >= node.output_size() || node.output(output).empty()) return;
    const std::string& tensor = node.output(output);
    if (graph_.shapes.count(tensor) == 0) return;
    const TensorShape shape = canonical_of(tensor, where);
    if (layers.size() == 1 && layer_shapes_.at(layers[0]) == shape) return bind(tensor, layers[0]);
    YAML::Node layout = new_layer(tensor, "layout", layers);
    layout["shape"] = shape_node(shape);
    layout["transform"] = "present cache";
    bind(tensor, emit(layout, shape));
  }

  // EmbedLayerNormalization: the embedding look-ups are free; their sum (word + position (+ segment)) is kept
  // as output 2, then LayerNormalization's 5 operations per element give output 0.
  void lower_embed_layer_normalization(const onnx::NodeProto& node, const std::string& where) {
    const TensorShape shape = canonical_of(node.output(0), where);
    std::vector<std::string> ids;
    for (const int i : {0, 1, 8}) {  // input_ids, segment_ids, position_ids
      if (i < node.input_size() && !node.input(i).empty() && !is_constant(node.input(i))) {
        ids.push_back(materialized(node.input(i), where).layer);
      }
    }
    const bool segments = node.input_size() > 4 && !node.input(4).empty();
    YAML::Node sum = new_layer(node_label(node, node.output(0)) + "/embeddings", "elementwise", ids);
    sum["function"] = "embedding_sum";
    sum["operations_per_element"] = segments ? 2.0 : 1.0;
    sum["shape"] = shape_node(shape);
    const std::string sum_layer = emit(sum, shape);
    if (node.output_size() > 2 && !node.output(2).empty()) bind(node.output(2), sum_layer);
    YAML::Node norm = new_layer(node_label(node, node.output(0)), "elementwise", {sum_layer});
    norm["function"] = "layernormalization";
    norm["operations_per_element"] = 5.0;
    norm["shape"] = shape_node(shape);
    bind(node.output(0), emit(norm, shape));
    if (node.output_size() > 1 && !node.output(1).empty() && graph_.shapes.count(node.output(1)) > 0) {
      const bool masked = node.input_size() > 7 && !node.input(7).empty() && !is_constant(node.input(7));
      const TensorShape mask_shape = canonical_of(node.output(1), where);
      YAML::Node mask =
          new_layer(node.output(1), "layout", {masked ? materialized(node.input(7), where).layer : ids[0]});
      mask["shape"] = shape_node(mask_shape);
      mask["transform"] = "mask index";
      bind(node.output(1), emit(mask, mask_shape));
    }
  }

  // MatMulNBits: A times N x K weights of `bits` bits, stored in blocks with their scales: the product at
  // the weights' width.
  void lower_matmul_n_bits(const onnx::NodeProto& node, const std::string& where) {
    const std::int64_t k = integer(node, "K", 0), n = integer(node, "N", 0), bits = integer(node, "bits", 4);
    if (k <= 0 || n <= 0) fail(path_, where, "attributes K and N must be positive");
    if (node.input_size() < 2 || !is_constant(node.input(1))) {
      unsupported(node, where, "weights computed at run time");
      throw Skip{};
    }
    Product product{node.input(0), node.input(1), dims_of(node.input(0), where), Dims{k, n}};
    product.bias = node.input_size() > 5 && !node.input(5).empty();
    const std::string layer = lower_product(node, product, where);
    layers_[layer_index_.at(layer)]["weight_bits"] = bits;
  }

  void lower_conv(const onnx::NodeProto& node, const std::string& where) {
    if (node.input_size() < 2 || !is_constant(node.input(1))) {
      unsupported(node, where, "weights computed at run time");
      throw Skip{};
    }
    const Dims& w = constant(node.input(1)).dims;  // [F, C/groups, k...]
    if (w.size() < 3) fail(path_, where, "the weights must have rank 3 or more");
    check_weights(node, w, w[1], where);
    WindowSpec spec = window(node, Dims(w.begin() + 2, w.end()), dims_of(node.input(0), where), where);
    const std::string input = window_input(node.input(0), spec, false, where);
    YAML::Node layer = new_layer(node_label(node, node.output(0)), "conv", {input});
    layer["filters"] = w[0];
    write_window(layer, spec);
    const std::int64_t groups = integer(node, "group", 1);
    if (groups != 1) layer["groups"] = groups;
    layer["bias"] = node.input_size() > 2 && !node.input(2).empty();
    bind(node.output(0), emit(layer, canonical_of(node.output(0), where)));
  }

  // A convolution's weights against its input's channels (`per_group` each of `group` groups) and its
  // kernel_shape: ONNX's inference checks neither, and the figures would follow the weights silently.
  void check_weights(const onnx::NodeProto& node, const Dims& w, std::int64_t per_group, const std::string& where) {
    const std::string weights = fmt::format("weights '{}' [{}]", node.input(1), fmt::join(w, ", "));
    const Dims& x = dims_of(node.input(0), where);
    const std::int64_t groups = integer(node, "group", 1);
    if (x.size() >= 2 && per_group * groups != x[1]) {
      const std::string expects = groups == 1 ? fmt::format("{} input channels", per_group)
                                              : fmt::format("{} input channels ({} per group x {} groups)",
                                                            per_group * groups, per_group, groups);
      const auto pinned = options_.input_shapes.find(node.input(0));
      if (pinned != options_.input_shapes.end()) {
        fail(path_, "--input-shape " + node.input(0),
             fmt::format("{}={} gives input '{}' {} channels, but its consumer, node '{}' ({}), expects {} (its {})",
                         node.input(0), fmt::join(pinned->second, "x"), node.input(0), x[1],
                         node_label(node, node.output(0)), node.op_type(), expects, weights));
      }
      fail(path_, where,
           fmt::format("its {} expect {}, but its input '{}' [{}] has {} channels", weights, expects, node.input(0),
                       fmt::join(x, ", "), x[1]));
    }
    const auto* kernel_shape = attribute(node, "kernel_shape");
    const Dims kernel(w.begin() + 2, w.end());
    if (kernel_shape != nullptr && Dims(kernel_shape->ints().begin(), kernel_shape->ints().end()) != kernel) {
      fail(path_, where + ".kernel_shape",
           fmt::format("[{}] contradicts its {}, whose kernel is [{}]", fmt::join(kernel_shape->ints(), ", "), weights,
                       fmt::join(kernel, ", ")));
    }
  }

  // A transposed convolution as its sub-pixel form (Shi et al., CVPR 2016): a stride-1 convolution with
  // stride_h x stride_w phases of filters of ceil(k / stride) taps over the input, then depth-to-space.
  void lower_conv_transpose(const onnx::NodeProto& node, const std::string& where) {
    if (node.input_size() < 2 || !is_constant(node.input(1))) {
      unsupported(node, where, "weights computed at run time");
      throw Skip{};
    }
    const Dims& w = constant(node.input(1)).dims;  // [C, F/groups, k...]
    if (w.size() < 3) fail(path_, where, "the weights must have rank 3 or more");
    const std::size_t rank = w.size() - 2;
    if (rank > 2) {
      unsupported(node, where, fmt::format("{}-D transposed convolution", rank));
      throw Skip{};
    }
    check_weights(node, w, w[0] / std::max<std::int64_t>(integer(node, "group", 1), 1), where);
    const Dims kernel = ints(node, "kernel_shape", Dims(w.begin() + 2, w.end()));
    Dims strides = ints(node, "strides", Dims(rank, 1));
    const Dims dilations = ints(node, "dilations", Dims(rank, 1));
    if (std::any_of(dilations.begin(), dilations.end(), [](std::int64_t d) { return d != 1; })) {
      unsupported(node, where, "dilated transposed convolution");
      throw Skip{};
    }
    const Dims& in = dims_of(node.input(0), where);
    const Dims& out = dims_of(node.output(0), where);
    const std::int64_t groups = integer(node, "group", 1);
    Dims phases_kernel, phase_outputs, pad_before, pad_after;
    for (std::size_t i = 0; i < rank; ++i) {
      const std::int64_t s = strides[i];
      const std::int64_t taps = (kernel[i] + s - 1) / s;
      const std::int64_t outputs = (out[out.size() - rank + i] + s - 1) / s;
      const std::int64_t total = outputs + taps - 1 - in[in.size() - rank + i];
      if (total < 0) {
        unsupported(node, where, "a transposed convolution whose output is cropped below its input");
        throw Skip{};
      }
      phases_kernel.push_back(taps);
      phase_outputs.push_back(outputs);
      pad_before.push_back(total / 2);
      pad_after.push_back(total - total / 2);
    }
    if (rank == 1) {
      phases_kernel.insert(phases_kernel.begin(), 1);
      phase_outputs.insert(phase_outputs.begin(), 1);
      pad_before.insert(pad_before.begin(), 0);
      pad_after.insert(pad_after.begin(), 0);
      strides.insert(strides.begin(), 1);
    }
    const std::string input = need(node.input(0), canonical_of(node.input(0), where), where);
    std::int64_t filters = 0;
    if (__builtin_mul_overflow(w[1] * groups, strides[0] * strides[1], &filters)) {
      fail(path_, where, "its sub-pixel filters (filters x stride^2) overflow 64-bit counters; use smaller strides");
    }
    YAML::Node conv = new_layer(node_label(node, node.output(0)) + "/subpixel", "conv", {input});
    conv["filters"] = filters;
    conv["kernel"] = pair_node(phases_kernel[0], phases_kernel[1]);
    YAML::Node padding(YAML::NodeType::Sequence);
    padding.SetStyle(YAML::EmitterStyle::Flow);
    for (const std::int64_t p : {pad_before[0], pad_after[0], pad_before[1], pad_after[1]}) padding.push_back(p);
    conv["padding"] = padding;
    if (groups != 1) conv["groups"] = groups;
    conv["bias"] = node.input_size() > 2 && !node.input(2).empty();
    conv["comment"] = fmt::format("ConvTranspose as {} sub-pixel phases", strides[0] * strides[1]);
    const std::string conv_name = emit(conv, TensorShape{filters, phase_outputs[0], phase_outputs[1]});
    const TensorShape shape = canonical_of(node.output(0), where);
    YAML::Node layout = new_layer(node_label(node, node.output(0)), "layout", {conv_name});
    layout["shape"] = shape_node(shape);
    layout["transform"] = "depth_to_space";
    bind(node.output(0), emit(layout, shape));
  }

  // A GEMM with constant weights: an fc per image row, or a 1x1 convolution over [K, rows, 1] (one row of
  // K features per pixel down the height, so a fold of pixels fetches exactly its rows); with
  // activations on both sides, a matmul layer. A constant first operand is handled as (B^T A^T)^T.
  void lower_gemm(const onnx::NodeProto& node, const std::string& where) {
    if (node.input_size() < 2) fail(path_, where, "needs two operands");
    const bool gemm = node.op_type() == "Gemm";
    Product product{node.input(0), node.input(1), dims_of(node.input(0), where), dims_of(node.input(1), where)};
    product.trans_a = gemm && integer(node, "transA", 0) != 0;
    product.trans_b = gemm && integer(node, "transB", 0) != 0;
    product.bias = gemm && node.input_size() > 2 && !node.input(2).empty();
    lower_product(node, product, where);
  }

  // The operands of a product A B (A and B as ONNX gives them, or transposed).
  struct Product {
    std::string a, b;
    Dims a_dims, b_dims;
    bool trans_a = false, trans_b = false, bias = false;
  };

  // Lowers `node`'s product and binds its output; returns the layer.
  std::string lower_product(const onnx::NodeProto& node, Product p, const std::string& where) {
    std::string &a = p.a, &b = p.b;
    Dims &a_dims = p.a_dims, &b_dims = p.b_dims;
    bool &trans_a = p.trans_a, &trans_b = p.trans_b;
    const bool bias = p.bias;
    if (a_dims.empty() || b_dims.empty()) fail(path_, where, "operands must have rank 1 or more");
    if (is_constant(a) && !is_constant(b)) {
      // C = A B  <=>  C^T = B^T A^T: the data becomes B^T and the weights A^T (as effective matrices).
      const auto swapped = [](Dims d) {
        if (d.size() >= 2) std::swap(d[d.size() - 1], d[d.size() - 2]);
        return d;
      };
      Dims data = trans_b ? b_dims : swapped(b_dims);
      Dims weights = trans_a ? a_dims : swapped(a_dims);
      std::swap(a, b);
      a_dims = std::move(data);
      b_dims = std::move(weights);
      trans_a = trans_b = false;
    }
    if (a_dims.size() == 1) a_dims.insert(a_dims.begin(), 1);
    if (b_dims.size() == 1) b_dims.push_back(1);
    const std::int64_t k = trans_a ? a_dims[a_dims.size() - 2] : a_dims.back();
    const std::int64_t k_b = trans_b ? b_dims.back() : b_dims[b_dims.size() - 2];
    const std::int64_t n = trans_b ? b_dims[b_dims.size() - 2] : b_dims.back();
    if (k != k_b) fail(path_, where, fmt::format("inner dimensions differ: {} and {}{}", k, k_b, pinned_inputs_hint()));
    const std::int64_t a_elements = canonical(dims_of(a, where)).elements();
    const std::int64_t groups_b = product(b_dims, 0, b_dims.size() - 2);
    const std::string name = node_label(node, node.output(0));
    dims_of(node.output(0), where);  // the product must have a static shape, as every lowered output
    if (is_constant(b) && groups_b == 1) {
      const std::int64_t rows = a_elements / k;
      if (rows == 1) {
        YAML::Node fc = new_layer(name, "fc", {need(a, TensorShape{k, 1, 1}, where)});
        fc["outputs"] = n;
        fc["bias"] = bias;
        return bind_layer(node.output(0), emit(fc, TensorShape{n, 1, 1}));
      }
      YAML::Node conv = new_layer(name, "conv", {need(a, TensorShape{k, rows, 1}, where)});
      conv["filters"] = n;
      conv["kernel"] = 1;
      conv["bias"] = bias;
      conv["comment"] = fmt::format("{} of {} rows as a 1x1 convolution", node.op_type(), rows);
      return bind_layer(node.output(0), emit(conv, TensorShape{n, rows, 1}));
    }
    if (is_constant(b)) {  // one weight matrix per group: a grouped 1x1 convolution
      const std::int64_t rows = a_elements / (k * groups_b);
      if (rows * k * groups_b != a_elements) {
        unsupported(node, where, "batched weights that do not match the data's batch dimensions");
        throw Skip{};
      }
      YAML::Node conv = new_layer(name, "conv", {need(a, TensorShape{groups_b * k, rows, 1}, where)});
      conv["filters"] = groups_b * n;
      conv["kernel"] = 1;
      conv["groups"] = groups_b;
      conv["bias"] = bias;
      conv["comment"] =
          fmt::format("batched {} ({} groups of {} rows) as a grouped 1x1 convolution", node.op_type(), groups_b, rows);
      return bind_layer(node.output(0), emit(conv, TensorShape{groups_b * n, rows, 1}));
    }
    // Two activations (attention): groups from the broadcast batch dimensions, per image.
    const std::int64_t b_elements = canonical(dims_of(b, where)).elements();
    std::int64_t groups = b_elements / (k * n);
    if (groups < 1 || groups * k * n != b_elements || a_elements % (groups * k) != 0) {
      unsupported(node, where, "a product whose operands do not broadcast to whole groups");
      throw Skip{};
    }
    const std::int64_t rows = a_elements / (groups * k);
    YAML::Node matmul =
        new_layer(name, "matmul", {need(a, TensorShape{groups * k, rows, 1}, where), materialized(b, where).layer});
    matmul["outputs"] = n;
    if (groups != 1) matmul["groups"] = groups;
    return bind_layer(node.output(0), emit(matmul, TensorShape{groups * n, rows, 1}));
  }

  // Einsum, as the product or layout it spells: with two operands, indices both operands and the output
  // carry are groups, indices only the operands share are contracted (K), and each operand's own indices
  // are its rows (M) or columns (N): M x K times K x N per group. One operand: a transpose (layout) or a
  // reduction (element-wise sums).
  void lower_einsum(const onnx::NodeProto& node, const std::string& where) {
    const EinsumEquation terms = einsum_terms(node, where);
    if (terms.operands.size() == 1) {
      std::set<char> in(terms.operands[0].begin(), terms.operands[0].end());
      if (std::set<char>(terms.output.begin(), terms.output.end()) == in) return lower_layout(node, "transpose", where);
      const double per_output =
          static_cast<double>(canonical_of(node.input(0), where).elements()) /
          static_cast<double>(std::max<std::int64_t>(canonical_of(node.output(0), where).elements(), 1));
      return lower_elementwise(node, "reduce_sum", per_output, where);
    }
    if (terms.operands.size() != 2) {
      unsupported(node, where, fmt::format("an Einsum of {} operands", terms.operands.size()));
      throw Skip{};
    }
    std::map<char, std::int64_t> sizes;
    for (int i = 0; i < 2; ++i) {
      const Dims& dims = dims_of(node.input(i), where);
      const std::string& term = terms.operands[static_cast<std::size_t>(i)];
      if (dims.size() != term.size()) {
        fail(path_, where + ".equation",
             fmt::format("'{}' names {} axes of input '{}', which has {}", term, term.size(), node.input(i),
                         dims.size()));
      }
      for (std::size_t axis = 0; axis < term.size(); ++axis) {
        const auto [size, added] = sizes.emplace(term[axis], dims[axis]);
        if (!added && size->second != dims[axis] && std::min(size->second, dims[axis]) != 1) {
          fail(path_, where,
               fmt::format("index '{}' is {} in one operand and {} in the other{}", term[axis], size->second,
                           dims[axis], pinned_inputs_hint()));
        }
        size->second = std::max(size->second, dims[axis]);
      }
    }
    const auto in = [](const std::string& term, char index) { return term.find(index) != std::string::npos; };
    const std::string &a = terms.operands[0], &b = terms.operands[1], &out = terms.output;
    std::int64_t groups = 1, rows = 1, contracted = 1, columns = 1;
    for (const auto& [index, size] : sizes) {
      const bool in_a = in(a, index), in_b = in(b, index), in_out = in(out, index);
      if (in_a && in_b) {
        (in_out ? groups : contracted) *= size;
      } else if (!in_out) {
        unsupported(node, where, fmt::format("an Einsum summing index '{}' of one operand only", index));
        throw Skip{};
      } else {
        (in_a ? rows : columns) *= size;
      }
    }
    Product product{node.input(0), node.input(1), Dims{groups, rows, contracted}, Dims{groups, contracted, columns}};
    if (groups == 1) product.a_dims = {rows, contracted}, product.b_dims = {contracted, columns};
    lower_product(node, product, where);
  }

  // The equation's terms, one per input.
  EinsumEquation einsum_terms(const onnx::NodeProto& node, const std::string& where) {
    const std::string equation = text(node, "equation", "");
    const std::optional<EinsumEquation> terms = parse_einsum(equation);
    if (!terms) {
      unsupported(node, where, "an Einsum with an ellipsis");
      throw Skip{};
    }
    if (static_cast<int>(terms->operands.size()) != node.input_size()) {
      fail(path_, where + ".equation",
           fmt::format("'{}' names {} operands; the node has {} inputs", equation, terms->operands.size(),
                       node.input_size()));
    }
    return *terms;
  }

  // TopK: each row of N values keeps its K largest with a heap of K: N x log2(K + 1) comparisons per row,
  // shared by its K outputs; the indices (output 1) come with the values.
  void lower_top_k(const onnx::NodeProto& node, const std::string& where) {
    const Dims& in = dims_of(node.input(0), where);
    const Dims& out = dims_of(node.output(0), where);
    std::int64_t axis = integer(node, "axis", -1);
    if (axis < 0) axis += static_cast<std::int64_t>(in.size());
    if (axis < 0 || axis >= static_cast<std::int64_t>(in.size())) fail(path_, where + ".axis", "is out of range");
    const auto n = static_cast<double>(in[static_cast<std::size_t>(axis)]);
    const auto k = static_cast<double>(std::max<std::int64_t>(out[static_cast<std::size_t>(axis)], 1));
    lower_selection(node, "top_k", n * std::max(1.0, std::ceil(std::log2(k + 1))) / k, where);
  }

  // NonMaxSuppression per batch item and class: its S boxes sorted by score (S log2 S comparisons), then
  // each kept box's overlap with the boxes left (at most S x M intersection-over-union tests of 8
  // operations; M kept per class), over the [selected, 3] indices it writes (sized by its bound).
  void lower_non_max_suppression(const onnx::NodeProto& node, const std::string& where) {
    const Dims& scores = dims_of(node.input(1), where);  // [batch, classes, boxes]
    const Dims& out = dims_of(node.output(0), where);
    if (scores.size() != 3 || out.size() != 2) fail(path_, where, "scores must be [batch, classes, boxes]");
    const auto boxes = static_cast<double>(scores[2]);
    const double classes = static_cast<double>(scores[0]) * static_cast<double>(scores[1]);
    const double kept = static_cast<double>(out[0]) / std::max(classes, 1.0);
    const double operations = classes * (boxes * std::ceil(std::log2(std::max(boxes, 2.0))) + 8.0 * boxes * kept);
    lower_selection(node, "non_max_suppression", operations / std::max<double>(static_cast<double>(out[0] * 3), 1.0),
                    where);
  }

  // Vector work sized by output 0; every other output is bound to it (indices chosen with the values).
  void lower_selection(const onnx::NodeProto& node, const std::string& function, double operations,
                       const std::string& where) {
    lower_elementwise(node, function, operations, where);
    for (int o = 1; o < node.output_size(); ++o) {
      if (!node.output(o).empty() && graph_.shapes.count(node.output(o)) > 0) {
        bind_present(node, {values_.at(node.output(0)).layer}, o, where);
      }
    }
  }

  void lower_pool(const onnx::NodeProto& node, const std::string& where) {
    if (attribute(node, "kernel_shape") == nullptr) fail(path_, where, "a pool needs kernel_shape");
    WindowSpec spec = window(node, {}, dims_of(node.input(0), where), where);
    const std::string input = window_input(node.input(0), spec, true, where);
    const std::string op = node.op_type() == "MaxPool" ? "maxpool" : "avgpool";
    YAML::Node layer = new_layer(node_label(node, node.output(0)), op, {input});
    write_window(layer, spec);
    if (integer(node, "ceil_mode", 0) != 0) layer["ceil_mode"] = true;
    bind(node.output(0), emit(layer, canonical_of(node.output(0), where)));
  }

  void lower_global_pool(const onnx::NodeProto& node, const std::string& where) {
    const std::string input = need(node.input(0), canonical_of(node.input(0), where), where);
    const std::string op = node.op_type() == "GlobalMaxPool" ? "global_maxpool" : "global_avgpool";
    const TensorShape in = layer_shapes_.at(input);
    YAML::Node layer = new_layer(node_label(node, node.output(0)), op, {input});
    bind(node.output(0), emit(layer, TensorShape{in.channels, 1, 1}));
  }

  std::string activation_function(const onnx::NodeProto& node) const {
    if (node.op_type() != "Clip") return activation_functions().at(node.op_type());
    // Clip's bounds: attributes before opset 11, optional constant inputs after.
    double low = real(node, "min", -INFINITY), high = real(node, "max", INFINITY);
    if (node.input_size() > 1 && !node.input(1).empty() && is_constant(node.input(1)) &&
        constant(node.input(1)).has_values) {
      low = constant(node.input(1)).real(0);
    }
    if (node.input_size() > 2 && !node.input(2).empty() && is_constant(node.input(2)) &&
        constant(node.input(2)).has_values) {
      high = constant(node.input(2)).real(0);
    }
    if (low == 0.0 && high == 6.0) return "relu6";
    if (low == 0.0 && std::isinf(high)) return "relu";
    return "clip";
  }

  void lower_activation(const onnx::NodeProto& node, const std::string& where) {
    const TensorShape shape = canonical_of(node.output(0), where);
    YAML::Node layer = new_layer(node_label(node, node.output(0)), "activation", {need(node.input(0), shape, where)});
    layer["function"] = activation_function(node);
    bind(node.output(0), emit(layer, shape));
  }

  // Vector-unit work on every activation input (each in its own canonical arrangement), sized by the output.
  void lower_elementwise(const onnx::NodeProto& node, const std::string& function, double operations,
                         const std::string& where) {
    std::vector<std::string> inputs;
    for (const auto& input : activations(node)) inputs.push_back(need(input, canonical_of(input, where), where));
    const TensorShape shape = canonical_of(node.output(0), where);
    YAML::Node layer = new_layer(node_label(node, node.output(0)), "elementwise", inputs);
    layer["function"] = function;
    if (operations != 1.0) layer["operations_per_element"] = operations;
    layer["shape"] = shape_node(shape);
    bind(node.output(0), emit(layer, shape));
  }

  bool folds_into_producer(const onnx::NodeProto& node, const std::string& data, const std::string& where) {
    const std::string& op = node.op_type();
    if (op != "Add" && op != "Sub" && op != "Mul" && op != "Div") return false;
    const Value& value = value_of(data, where);
    if (value.pending_pad) return false;
    const YAML::Node& producer = layers_[layer_index_.at(value.layer)];
    const std::string kind = producer["op"].as<std::string>();
    if (kind != "conv" && kind != "fc") return false;
    // Per-channel (or scalar) constants are a bias or a scale the producer applies as it writes back.
    for (const auto& input : node.input()) {
      if (input.empty() || !is_constant(input)) continue;
      if (constant(input).elements() > value.shape.channels) return false;
    }
    return readers_[value.layer].empty();
  }

  // Operands that do not broadcast (numpy's rule) leave the output unsized; say which, and which pins gave
  // them, rather than asking for pins already given.
  void check_broadcast(const onnx::NodeProto& node, const std::string& where) const {
    std::vector<std::pair<std::string, const Dims*>> operands;
    for (const auto& input : node.input()) {
      const auto found = graph_.shapes.find(input);
      if (input.empty() || found == graph_.shapes.end()) return;  // an unsized operand: dims_of names it
      operands.emplace_back(input, &found->second);
    }
    for (std::size_t i = 0; i < operands.size(); ++i) {
      for (std::size_t j = i + 1; j < operands.size(); ++j) {
        const Dims &a = *operands[i].second, &b = *operands[j].second;
        for (std::size_t back = 1; back <= std::min(a.size(), b.size()); ++back) {
          const std::int64_t x = a[a.size() - back], y = b[b.size() - back];
          if (x == y || x == 1 || y == 1) continue;
          fail(path_, where,
               fmt::format("its operands '{}' [{}] and '{}' [{}] do not broadcast (axis -{}: {} against {}){}",
                           operands[i].first, fmt::join(a, ", "), operands[j].first, fmt::join(b, ", "), back, x, y,
                           pinned_inputs_hint()));
        }
      }
    }
  }

  void lower_arithmetic(const onnx::NodeProto& node, const std::string& where) {
    if (graph_.shapes.count(node.output(0)) == 0) check_broadcast(node, where);
    const std::vector<std::string> inputs = activations(node);
    const bool has_constant = static_cast<int>(inputs.size()) < node.input_size();
    const std::string& op = node.op_type();
    const TensorShape out = canonical_of(node.output(0), where);
    if (inputs.size() == 1 && has_constant && folds_into_producer(node, inputs[0], where)) {
      // An added constant is the producer's bias (MatMul + Add as exporters split a Linear): its parameters.
      if (op == "Add" || op == "Sub") layers_[layer_index_.at(value_of(inputs[0], where).layer)]["bias"] = true;
      values_[node.output(0)] = value_of(inputs[0], where);
      result_.tensor_layers[node.output(0)] = {values_[node.output(0)].layer, out.elements()};
      return;
    }
    const bool same_shapes =
        std::all_of(inputs.begin(), inputs.end(), [&](const std::string& i) { return canonical_of(i, where) == out; });
    if (!has_constant && inputs.size() >= 2 && same_shapes && (op == "Add" || op == "Sum")) {
      std::vector<std::string> layers;
      for (const auto& input : inputs) layers.push_back(need(input, out, where));
      YAML::Node layer = new_layer(node_label(node, node.output(0)), "add", layers);
      return bind(node.output(0), emit(layer, out));
    }
    if (!has_constant && inputs.size() == 2 && op == "Mul" && canonical_of(inputs[0], where) == out) {
      const TensorShape scale = canonical_of(inputs[1], where);
      const TensorShape channel_scale{out.channels, 1, 1};
      if (scale == out || scale.elements() == out.channels) {
        YAML::Node layer =
            new_layer(node_label(node, node.output(0)), "mul",
                      {need(inputs[0], out, where), need(inputs[1], scale == out ? out : channel_scale, where)});
        return bind(node.output(0), emit(layer, out));
      }
    }
    const double operations = std::max<double>(1.0, static_cast<double>(node.input_size() - 1));
    lower_elementwise(node, ascii_lower(op), op == "Where" ? 1.0 : operations, where);
  }

  void lower_batchnorm(const onnx::NodeProto& node, const std::string& where) {
    const Value& value = value_of(node.input(0), where);
    const auto found = layer_index_.find(value.layer);
    if (!value.pending_pad && found != layer_index_.end() && readers_[value.layer].empty()) {
      YAML::Node producer = layers_[found->second];
      const std::string kind = producer["op"].as<std::string>();
      if (kind == "conv" || kind == "fc") {
        producer["batchnorm"] = true;
        values_[node.output(0)] = value;
        result_.tensor_layers[node.output(0)] = {value.layer, canonical_of(node.output(0), where).elements()};
        return;
      }
    }
    lower_elementwise(node, "batchnorm", 2.0, where);  // a scale and a shift per element
  }

  std::optional<Dims> reduce_axes(const onnx::NodeProto& node) const {
    if (node.op_type() == "ArgMax" || node.op_type() == "ArgMin") return Dims{integer(node, "axis", 0)};
    const bool axes_input = graph_.opset >= 18 || (node.op_type() == "ReduceSum" && graph_.opset >= 13);
    return axes_input ? list_input(node, 1, "")
                      : (attribute(node, "axes") ? std::optional<Dims>(ints(node, "axes", {})) : std::nullopt);
  }

  void lower_reduce(const onnx::NodeProto& node, const std::string& where) {
    const Dims& in = dims_of(node.input(0), where);
    std::optional<Dims> axes = reduce_axes(node);
    std::set<std::int64_t> reduced;
    if (axes) {
      for (std::int64_t a : *axes) reduced.insert(a < 0 ? a + static_cast<std::int64_t>(in.size()) : a);
    }
    const std::string& op = node.op_type();
    const bool spatial = in.size() == 4 && reduced == std::set<std::int64_t>{2, 3};
    if (spatial && (op == "ReduceMean" || op == "ReduceMax")) {
      const std::string input = need(node.input(0), canonical_of(node.input(0), where), where);
      YAML::Node layer = new_layer(node_label(node, node.output(0)),
                                   op == "ReduceMean" ? "global_avgpool" : "global_maxpool", {input});
      return bind(node.output(0), emit(layer, TensorShape{in[1], 1, 1}));
    }
    const double per_output =
        static_cast<double>(canonical(in).elements()) /
        static_cast<double>(std::max<std::int64_t>(canonical_of(node.output(0), where).elements(), 1));
    std::string function = ascii_lower(op);
    if (function.rfind("reduce", 0) == 0) function = "reduce_" + function.substr(6);
    lower_elementwise(node, function, per_output, where);
  }

  // The axis of an ONNX tensor that is Ergon's channel axis, when there is one.
  bool is_channel_axis(std::int64_t axis, std::size_t rank) const {
    if (axis < 0) axis += static_cast<std::int64_t>(rank);
    return rank >= 2 && axis == 1;
  }

  void lower_concat(const onnx::NodeProto& node, const std::string& where) {
    const std::vector<std::string> inputs = activations(node);
    const Dims& out = dims_of(node.output(0), where);
    const std::int64_t axis = integer(node, "axis", 1);
    const bool all_activations = static_cast<int>(inputs.size()) == node.input_size();
    if (all_activations && inputs.size() >= 2 && is_channel_axis(axis, out.size()) && out.size() >= 3) {
      std::vector<std::string> layers;
      for (const auto& input : inputs) layers.push_back(need(input, canonical_of(input, where), where));
      YAML::Node layer = new_layer(node_label(node, node.output(0)), "concat", layers);
      return bind(node.output(0), emit(layer, canonical(out)));
    }
    lower_layout(node, "concat", where);
  }

  void lower_split(const onnx::NodeProto& node, const std::string& where) {
    const Dims& in = dims_of(node.input(0), where);
    const std::int64_t axis = integer(node, "axis", 0);
    // A part without a name has no shape to size its slice by.
    const bool unnamed_part = std::any_of(node.output().begin(), node.output().end(),
                                          [](const std::string& output) { return output.empty(); });
    if (!is_channel_axis(axis, in.size()) || in.size() < 3 || unnamed_part) {
      return lower_layout(node, "split", where);
    }
    const std::string input = need(node.input(0), canonical(in), where);
    std::int64_t begin = 0;
    for (const auto& output : node.output()) {
      const Dims& part = dims_of(output, where);
      const std::int64_t end = begin + part[1];
      YAML::Node layer = new_layer(output, "slice", {input});
      layer["channels"] = pair_node(begin, end);
      bind(output, emit(layer, canonical(part)));
      begin = end;
    }
  }

  // A constant zero Pad on the spatial axes waits for a conv or pool to take it as padding; any other Pad is
  // a free layout.
  void lower_pad(const onnx::NodeProto& node, const std::string& where) {
    const Dims& in = dims_of(node.input(0), where);
    const std::optional<Dims> pads = list_input(node, 1, graph_.opset >= 11 ? "" : "pads");
    const std::string mode = text(node, "mode", "constant");
    bool zero = true;
    if (node.input_size() > 2 && !node.input(2).empty()) {
      zero = is_constant(node.input(2)) && constant(node.input(2)).has_values && constant(node.input(2)).real(0) == 0.0;
    }
    if (graph_.opset < 11) zero = real(node, "value", 0.0f) == 0.0f;
    const bool axes_input = node.input_size() > 3 && !node.input(3).empty();
    const std::size_t rank = in.size();
    if (pads && pads->size() == 2 * rank && mode == "constant" && zero && !axes_input && (rank == 3 || rank == 4)) {
      bool spatial_only = true;
      for (std::size_t i = 0; i < 2; ++i) spatial_only = spatial_only && (*pads)[i] == 0 && (*pads)[i + rank] == 0;
      const Value& value = value_of(node.input(0), where);
      if (spatial_only && !value.pending_pad &&
          std::all_of(pads->begin(), pads->end(), [](std::int64_t p) { return p >= 0; })) {
        Padding p;
        if (rank == 4) p = Padding{(*pads)[2], (*pads)[6], (*pads)[3], (*pads)[7], false};
        if (rank == 3) p = Padding{0, 0, (*pads)[2], (*pads)[5], false};
        Value pending{need(node.input(0), canonical(in), where), canonical(in), p, node_label(node, node.output(0))};
        values_[node.output(0)] = pending;
        return;
      }
    }
    lower_layout(node, "pad", where);
  }

  void lower_resize(const onnx::NodeProto& node, const std::string& where) {
    const std::string mode = text(node, "mode", "nearest");
    const Dims& in = dims_of(node.input(0), where);
    const Dims& out = dims_of(node.output(0), where);
    if (mode == "nearest" && in.size() == 4 && out.size() == 4 && in[1] == out[1] && out[2] % in[2] == 0 &&
        out[2] / in[2] == out[3] / in[3] && out[3] % in[3] == 0) {
      const std::string input = need(node.input(0), canonical(in), where);
      YAML::Node layer = new_layer(node_label(node, node.output(0)), "upsample", {input});
      layer["scale"] = out[2] / in[2];
      return bind(node.output(0), emit(layer, canonical(out)));
    }
    std::size_t resized_axes = 0;
    for (std::size_t i = 0; i < std::min(in.size(), out.size()); ++i) resized_axes += in[i] != out[i] ? 1 : 0;
    // Interpolation taps per output: nearest copies one, linear blends 2 per resized axis, cubic 4.
    const double taps = mode == "nearest" ? 1.0
                                          : std::pow(mode == "cubic" ? 4.0 : 2.0,
                                                     static_cast<double>(std::max<std::size_t>(resized_axes, 1)));
    lower_elementwise(node, "resize_" + mode, taps, where);
  }

  void lower_layout(const onnx::NodeProto& node, const std::string& transform, const std::string& where) {
    std::vector<std::string> inputs;
    for (const auto& input : activations(node)) inputs.push_back(materialized(input, where).layer);
    for (int o = 0; o < node.output_size(); ++o) {
      const std::string& output = node.output(o);
      // A secondary output ONNX gives no shape (Dropout's mask) is left unbound until something reads it.
      if (output.empty() || (o > 0 && graph_.shapes.count(output) == 0)) continue;
      const TensorShape shape = canonical_of(output, where);
      if (inputs.size() == 1 && layer_shapes_.at(inputs[0]) == shape) {  // a view of the same arrangement
        bind(output, inputs[0]);
        continue;
      }
      YAML::Node layer = new_layer(node.output_size() > 1 ? output : node_label(node, output), "layout", inputs);
      layer["shape"] = shape_node(shape);
      layer["transform"] = transform;
      bind(output, emit(layer, shape));
    }
  }

  // LSTM, GRU and RNN unrolled over their time steps: one 1x1 convolution projects every step's input at
  // once (it does not depend on the recurrence); then per direction and step an fc applies the recurrent
  // weights to the previous hidden state and an element-wise layer forms the gates and the new state.
  void lower_recurrent(const onnx::NodeProto& node, const std::string& where) {
    const std::string& op = node.op_type();
    const std::int64_t gates = op == "LSTM" ? 4 : op == "GRU" ? 3 : 1;
    // Per hidden unit and step: LSTM 4 sums, 3 sigmoids, 2 tanh, 3 products, 1 sum; GRU 3 sums, 2 sigmoids,
    // 1 tanh, 1 reset product and 3 for the blend; RNN 1 sum and 1 tanh.
    const double cell_operations = op == "LSTM" ? 13.0 : op == "GRU" ? 10.0 : 2.0;
    if (node.input_size() < 3 || !is_constant(node.input(1)) || !is_constant(node.input(2))) {
      unsupported(node, where, "weights computed at run time");
      throw Skip{};
    }
    const Dims& x = dims_of(node.input(0), where);
    const Dims& w = constant(node.input(1)).dims;  // [directions, gates x hidden, input]
    if (x.size() != 3 || w.size() != 3) fail(path_, where, "X must be [steps, batch, input] and W of rank 3");
    const bool batch_first = integer(node, "layout", 0) != 0;
    const std::int64_t steps = batch_first ? x[1] : x[0];
    const std::int64_t sequences = batch_first ? x[0] : x[1];
    const std::int64_t directions = w[0], hidden = w[1] / gates, features = w[2];
    const std::int64_t per_image = std::max<std::int64_t>(sequences / batch_, 1);
    const std::string name = node_label(node, node.output(0));
    YAML::Node projection = new_layer(name + "/input_projection", "conv",
                                      {need(node.input(0), TensorShape{features, steps * per_image, 1}, where)});
    projection["filters"] = directions * gates * hidden;
    projection["kernel"] = 1;
    projection["comment"] = fmt::format("{}: W x_t for all {} steps", op, steps);
    const std::string projected = emit(projection, TensorShape{directions * gates * hidden, steps * per_image, 1});
    const std::optional<std::string> initial =
        node.input_size() > 5 && !node.input(5).empty() && !is_constant(node.input(5))
            ? std::optional<std::string>(materialized(node.input(5), where).layer)
            : std::nullopt;
    std::vector<std::string> all_states, last_states;
    for (std::int64_t d = 0; d < directions; ++d) {
      std::optional<std::string> state = initial;
      std::vector<std::string> states(static_cast<std::size_t>(steps));
      for (std::int64_t i = 0; i < steps; ++i) {
        const std::int64_t t = d == 1 ? steps - 1 - i : i;  // the reverse direction walks back
        const std::string step = fmt::format("{}/d{}_t{}", name, d, t);
        YAML::Node slice = new_layer(step + "_input", "layout", {projected});
        const TensorShape gate_shape{gates * hidden * per_image, 1, 1};
        slice["shape"] = shape_node(gate_shape);
        slice["transform"] = "step slice";
        std::vector<std::string> cell_inputs{emit(slice, gate_shape)};
        if (state) {
          YAML::Node recurrence = new_layer(step + "_recurrence", "fc", {*state});
          recurrence["outputs"] = gates * hidden * per_image;
          recurrence["comment"] = "R h_(t-1)";
          cell_inputs.push_back(emit(recurrence, gate_shape));
        }
        YAML::Node cell = new_layer(step + "_cell", "elementwise", cell_inputs);
        cell["function"] = ascii_lower(op) + "_cell";
        cell["operations_per_element"] = cell_operations;
        const TensorShape state_shape{hidden * per_image, 1, 1};
        cell["shape"] = shape_node(state_shape);
        state = emit(cell, state_shape);
        states[static_cast<std::size_t>(t)] = *state;
      }
      all_states.insert(all_states.end(), states.begin(), states.end());
      last_states.push_back(*state);
    }
    const auto gather = [&](const std::string& tensor, const std::vector<std::string>& parts, const std::string& how) {
      if (tensor.empty() || graph_.shapes.count(tensor) == 0) return;
      const TensorShape shape = canonical_of(tensor, where);
      if (parts.size() == 1 && layer_shapes_.at(parts[0]) == shape) return bind(tensor, parts[0]);
      YAML::Node layout = new_layer(tensor, "layout", parts);
      layout["shape"] = shape_node(shape);
      layout["transform"] = how;
      bind(tensor, emit(layout, shape));
    };
    gather(node.output(0), all_states, "stack steps");
    if (node.output_size() > 1) gather(node.output(1), last_states, "last state");
    if (node.output_size() > 2) gather(node.output(2), last_states, "last cell state");
  }

  // ---- reporting and graph shape ----

  void report_unsupported() {
    if (unsupported_.empty()) return;
    std::map<std::string, std::vector<std::string>> by_op;
    for (const auto& u : unsupported_) by_op[u.op].push_back(u.where + (u.why.empty() ? "" : ": " + u.why));
    std::string list;
    for (const auto& [op, nodes] : by_op) {
      list += fmt::format("\n  {} x{}: {}", op, nodes.size(),
                          fmt::join(nodes.begin(), nodes.begin() + std::min<std::size_t>(nodes.size(), 5), "; "));
      if (nodes.size() > 5) list += fmt::format("; and {} more", nodes.size() - 5);
    }
    if (!options_.skip_unsupported) {
      fail(
          path_, "",
          fmt::format("{} node(s) cannot be lowered to Ergon's layers:{}\nRun with --skip-unsupported to treat them as "
                      "free data movement (docs/workloads.md lists what each operator becomes)",
                      unsupported_.size(), list));
    }
    result_.notes.push_back(
        fmt::format("{} node(s) treated as free data movement (--skip-unsupported):{}", unsupported_.size(), list));
    warn_of_dropped_macs();
  }

  // The skipped nodes that carry MACs, biggest first: the figures of every run of this workload lack them.
  void warn_of_dropped_macs() {
    std::vector<const Unsupported*> carrying;
    std::uint64_t total = 0;
    for (const auto& u : unsupported_) {
      if (!u.macs || *u.macs == 0) continue;
      carrying.push_back(&u);
      if (__builtin_add_overflow(total, *u.macs, &total)) total = UINT64_MAX;
    }
    if (carrying.empty()) return;
    std::stable_sort(carrying.begin(), carrying.end(), [](auto* a, auto* b) { return *a->macs > *b->macs; });
    constexpr std::size_t kListed = 20;
    std::string list;
    for (std::size_t i = 0; i < std::min(carrying.size(), kListed); ++i) {
      list += fmt::format("\n  {} '{}': {} MACs", carrying[i]->op, carrying[i]->node, *carrying[i]->macs);
    }
    if (carrying.size() > kListed) {
      list += fmt::format("\n  and {} more (all in the workload's skipped_nodes)", carrying.size() - kListed);
    }
    result_.warnings.push_back(fmt::format(
        "--skip-unsupported drops {} MACs per image ({:.4f} G) from {} skipped node(s); every figure of this "
        "workload leaves them out:{}",
        total, static_cast<double>(total) / 1e9, carrying.size(), list));
  }

  // `skipped_nodes`: every node left out, in model order, with its MACs when they can be counted.
  YAML::Node skipped_nodes_node() const {
    YAML::Node list(YAML::NodeType::Sequence);
    for (const auto& u : unsupported_) {
      YAML::Node entry;
      entry.SetStyle(YAML::EmitterStyle::Flow);
      entry["node"] = u.node;
      entry["op"] = u.op;
      if (u.macs) entry["macs"] = *u.macs;
      list.push_back(entry);
    }
    return list;
  }

  // An input no layer reads (a sample-rate scalar, an unused state) is left out, with a note.
  void drop_unread_inputs() {
    YAML::Node kept(YAML::NodeType::Sequence);
    for (const auto& layer : layers_) {
      const std::string name = layer["name"].as<std::string>();
      if (layer["op"].as<std::string>() == "input" && readers_[name].empty() && layers_.size() > 1) {
        result_.notes.push_back("input '" + name + "' is read by no lowered layer; left out");
        for (auto it = result_.tensor_layers.begin(); it != result_.tensor_layers.end();) {
          it = it->second.first == name ? result_.tensor_layers.erase(it) : std::next(it);
        }
        continue;
      }
      kept.push_back(layer);
    }
    layers_ = kept;
  }

  // Weakly connected components of the lowered graph (more than one: the layers are independent).
  std::size_t components() const {
    std::map<std::string, std::string> parent;
    std::function<std::string(const std::string&)> root = [&](const std::string& x) {
      auto& p = parent[x];
      if (p.empty() || p == x) return p = x;
      return p = root(p);
    };
    for (const auto& layer : layers_) {
      const std::string name = layer["name"].as<std::string>();
      root(name);
      for (const auto& input : layer["inputs"]) parent[root(input.as<std::string>())] = root(name);
    }
    std::set<std::string> roots;
    for (const auto& layer : layers_) roots.insert(root(layer["name"].as<std::string>()));
    return roots.size();
  }

  struct Unsupported {
    std::string op, where, why;
    std::string node;                   // the node's name (its output's when it has none)
    std::optional<std::uint64_t> macs;  // per image, when its shapes give them
  };

  std::string path_;
  const PreparedOnnxGraph& graph_;
  const OnnxImportOptions& options_;
  std::int64_t batch_ = 1;
  std::map<std::string, Value> values_;                      // ONNX tensor -> its layer
  std::map<std::string, TensorShape> layer_shapes_;          // layer -> output shape
  std::map<std::string, std::size_t> layer_index_;           // layer -> position in layers_
  std::map<std::string, std::vector<std::string>> readers_;  // layer -> layers reading it
  std::map<std::string, std::string> rearranged_;            // "layer->shape" -> layout layer
  std::map<std::string, OnnxConstant> derived_constants_;    // outputs of constant-only nodes left unfolded
  std::set<std::string> names_;
  std::vector<Unsupported> unsupported_;
  std::map<std::string, std::string> unsized_;  // tensors unsupported nodes leave unsized, and which node
  std::map<std::string, std::vector<const onnx::NodeProto*>> readers_of_;  // ONNX tensor -> the nodes reading it
  std::map<std::string, const onnx::NodeProto*> writer_of_;                // ONNX tensor -> the node writing it
  YAML::Node layers_{YAML::NodeType::Sequence};
  LoweredOnnx result_;
};

}  // namespace

LoweredOnnx lower_onnx_graph(const std::string& path, const PreparedOnnxGraph& graph,
                             const OnnxImportOptions& options) {
  return Lowering(path, graph, options).run();
}

}  // namespace ergon
