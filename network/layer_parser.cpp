#include "network/layer_parser.hpp"

#include <algorithm>
#include <map>

#include "common/text.hpp"

namespace ergon {
namespace {

// Sizes, strides, paddings and scales stay far below 2^63 so that shape arithmetic cannot overflow.
constexpr IntRule kPositiveDimension{1, std::int64_t{1} << 31};
constexpr IntRule kNonNegativeDimension{0, std::int64_t{1} << 31};

const std::map<std::string, OpKind>& op_kinds() {
  static const std::map<std::string, OpKind> kinds = {
      {"input", OpKind::kInput},
      {"conv", OpKind::kConv},
      {"fc", OpKind::kFullyConnected},
      {"maxpool", OpKind::kMaxPool},
      {"avgpool", OpKind::kAvgPool},
      {"global_avgpool", OpKind::kGlobalAvgPool},
      {"global_maxpool", OpKind::kGlobalMaxPool},
      {"add", OpKind::kAdd},
      {"mul", OpKind::kMul},
      {"concat", OpKind::kConcat},
      {"activation", OpKind::kActivation},
      {"slice", OpKind::kSlice},
      {"upsample", OpKind::kUpsample},
      {"layout", OpKind::kLayout},
      {"elementwise", OpKind::kElementwise},
      {"matmul", OpKind::kMatMul},
  };
  return kinds;
}

const std::vector<std::string> kActivationFunctions = {"relu",     "relu6",    "leaky_relu", "sigmoid", "tanh", "swish",
                                                       "hswish",   "hsigmoid", "softmax",    "gelu",    "elu",  "selu",
                                                       "softplus", "prelu",    "mish",       "clip"};

std::string parse_activation(const YamlView& view) {
  const std::string name = ascii_lower(view.as_string());
  if (std::find(kActivationFunctions.begin(), kActivationFunctions.end(), name) == kActivationFunctions.end()) {
    view.fail("unknown activation '" + name + "'; known: " + join_alternatives(kActivationFunctions));
  }
  return name;
}

std::vector<std::string> map_keys(const std::map<std::string, OpKind>& kinds) {
  std::vector<std::string> keys;
  for (const auto& entry : kinds) keys.push_back(entry.first);
  return keys;
}

OpKind parse_op(const YamlView& view) {
  const std::string text = view.as_string();
  const auto found = op_kinds().find(ascii_lower(text));
  if (found != op_kinds().end()) return found->second;
  const std::string suggestion = closest_match(text, map_keys(op_kinds()));
  view.fail("unknown op '" + text + "'" +
            (suggestion.empty() ? "; known ops: " + join_alternatives(map_keys(op_kinds()))
                                : "; did you mean '" + suggestion + "'?"));
}

// An int or a [height, width] pair.
std::pair<std::int64_t, std::int64_t> parse_pair(const YamlView& view, IntRule rule) {
  if (!view.node().IsSequence()) {
    const std::int64_t value = view.as_int(rule);
    return {value, value};
  }
  const auto items = view.items();
  if (items.size() != 2) view.fail("expected one integer or a [height, width] pair");
  return {items[0].as_int(rule), items[1].as_int(rule)};
}

Padding parse_padding(const YamlView& view) {
  Padding padding;
  if (view.node().IsScalar() && (view.node().Scalar() == "same" || view.node().Scalar() == "valid")) {
    padding.same = view.node().Scalar() == "same";
    return padding;
  }
  if (view.node().IsSequence() && view.node().size() == 4) {
    const auto items = view.items();
    return {items[0].as_int(kNonNegativeDimension), items[1].as_int(kNonNegativeDimension),
            items[2].as_int(kNonNegativeDimension), items[3].as_int(kNonNegativeDimension), false};
  }
  if (view.node().IsSequence() && view.node().size() != 2) {
    view.fail("expected an integer, [pad_h, pad_w], [top, bottom, left, right], same or valid");
  }
  const auto [pad_h, pad_w] = parse_pair(view, kNonNegativeDimension);
  return {pad_h, pad_h, pad_w, pad_w, false};
}

Window parse_window(YamlMap& map, bool stride_defaults_to_kernel) {
  Window window;
  std::tie(window.kernel_h, window.kernel_w) = parse_pair(map.at("kernel"), kPositiveDimension);
  if (auto stride = map.find("stride")) {
    std::tie(window.stride_h, window.stride_w) = parse_pair(*stride, kPositiveDimension);
  } else if (stride_defaults_to_kernel) {
    window.stride_h = window.kernel_h;
    window.stride_w = window.kernel_w;
  }
  if (auto dilation = map.find("dilation")) {
    std::tie(window.dilation_h, window.dilation_w) = parse_pair(*dilation, kPositiveDimension);
  }
  if (auto padding = map.find("padding")) window.padding = parse_padding(*padding);
  return window;
}

TensorShape parse_shape(const YamlView& view) {
  const auto items = view.items();
  if (items.size() != 1 && items.size() != 3) view.fail("expected [channels, height, width] or [channels]");
  const IntRule dimension{1, std::int64_t{1} << 31};
  TensorShape shape{items[0].as_int(dimension), 1, 1};
  if (items.size() == 3) {
    shape.height = items[1].as_int(dimension);
    shape.width = items[2].as_int(dimension);
  }
  return shape;
}

std::vector<std::string> parse_input_names(const YamlView& view) {
  if (view.node().IsScalar()) return {view.as_string()};
  std::vector<std::string> names;
  for (const auto& item : view.items()) names.push_back(item.as_string());
  if (names.empty()) view.fail("expected at least one input name");
  return names;
}

ConvParams parse_conv(YamlMap& map) {
  ConvParams conv;
  conv.depthwise = map.get_bool("depthwise", false);
  conv.filters =
      conv.depthwise ? map.get_int("filters", 0, kPositiveDimension) : map.get_int("filters", kPositiveDimension);
  conv.groups = map.get_int("groups", 1, kPositiveDimension);
  if (conv.depthwise && map.has("groups")) map.at("groups").fail("give either groups or depthwise: true, not both");
  conv.bias = map.get_bool("bias", true);
  conv.batchnorm = map.get_bool("batchnorm", false);
  conv.window = parse_window(map, false);
  return conv;
}

OpParams parse_params(OpKind op, YamlMap& map) {
  switch (op) {
    case OpKind::kInput: return InputParams{parse_shape(map.at("shape")), map.get_bool("intermediate", false)};
    case OpKind::kConv: return parse_conv(map);
    case OpKind::kFullyConnected:
      return FullyConnectedParams{map.get_int("outputs", kPositiveDimension), map.get_bool("bias", true),
                                  map.get_bool("batchnorm", false)};
    case OpKind::kMaxPool:
    case OpKind::kAvgPool: {
      PoolParams pool;
      pool.window = parse_window(map, true);
      pool.ceil_mode = map.get_bool("ceil_mode", false);
      return pool;
    }
    case OpKind::kActivation: return ActivationParams{parse_activation(map.at("function"))};
    case OpKind::kSlice: {
      const YamlView channels = map.at("channels");
      const auto items = channels.items();
      if (items.size() != 2) channels.fail("expected [begin, end) channel indices");
      return SliceParams{items[0].as_int(kNonNegativeDimension), items[1].as_int(kPositiveDimension)};
    }
    case OpKind::kUpsample: return UpsampleParams{map.get_int("scale", kPositiveDimension)};
    case OpKind::kLayout: return LayoutParams{parse_shape(map.at("shape")), map.get_string("transform", "reshape")};
    case OpKind::kElementwise: {
      ElementwiseParams params;
      params.function = map.get_string("function");
      if (params.function.empty()) map.at("function").fail("name the operation (add, div, reduce_mean, ...)");
      params.operations_per_element = map.get_number("operations_per_element", 1.0, NumberRule{0.0, 1e6, false});
      if (auto shape = map.find("shape")) params.shape = parse_shape(*shape);
      return params;
    }
    case OpKind::kMatMul:
      return MatMulParams{map.get_int("outputs", kPositiveDimension), map.get_int("groups", 1, kPositiveDimension)};
    default: return NoParams{};
  }
}

Sparsity parse_sparsity(YamlMap& map) {
  Sparsity sparsity;
  auto view = map.find("sparsity");
  if (!view) return sparsity;
  YamlMap sparsity_map(*view);
  const NumberRule fraction{0.0, 0.999999, false};
  sparsity.ifmap = sparsity_map.get_number("ifmap", 0.0, fraction);
  sparsity.ofmap = sparsity_map.get_number("ofmap", 0.0, fraction);
  sparsity_map.reject_unknown_keys();
  return sparsity;
}

OperandWidths parse_widths(YamlMap& map) {
  OperandWidths widths;
  widths.activation_bits = static_cast<int>(map.get_int("activation_bits", 0, IntRule{1, 32}));
  widths.weight_bits = static_cast<int>(map.get_int("weight_bits", 0, IntRule{1, 32}));
  widths.accumulator_bits = static_cast<int>(map.get_int("accumulator_bits", 0, IntRule{8, 64}));
  return widths;
}

}  // namespace

Layer parse_layer(const YamlView& node, std::int64_t default_batch) {
  YamlMap map(node);
  Layer layer;
  layer.location = node.location();
  layer.name = map.get_string("name");
  if (layer.name.empty()) map.at("name").fail("a layer name must not be empty");
  layer.key_path = node.path() + " (" + layer.name + ")";
  layer.op = parse_op(map.at("op"));
  if (layer.op == OpKind::kInput) {
    if (map.has("inputs")) map.at("inputs").fail("an input node reads nothing; remove 'inputs'");
  } else {
    layer.input_names = parse_input_names(map.at("inputs"));
  }
  layer.params = parse_params(layer.op, map);
  layer.batch = map.get_int("batch", default_batch, IntRule{1, kMaxBatch});
  layer.sparsity = parse_sparsity(map);
  if (layer.op == OpKind::kConv || layer.op == OpKind::kFullyConnected) {
    if (auto activation = map.find("activation")) layer.fused_activation = parse_activation(*activation);
  }
  if (layer.op == OpKind::kConv || layer.op == OpKind::kFullyConnected || layer.op == OpKind::kMatMul) {
    layer.widths = parse_widths(map);
  }
  map.get_string("comment", "");
  map.reject_unknown_keys();
  return layer;
}

}  // namespace ergon
