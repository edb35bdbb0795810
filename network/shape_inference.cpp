#include "network/shape_inference.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace ergon {
namespace {

[[noreturn]] void fail(const Layer& layer, const std::string& key, const std::string& message) {
  fail_at_layer(layer, key, message);
}

std::uint64_t checked_product(const Layer& layer, std::initializer_list<std::int64_t> factors) {
  std::uint64_t product = 1;
  for (const std::int64_t factor : factors) {
    if (__builtin_mul_overflow(product, static_cast<std::uint64_t>(factor), &product) ||
        product > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      fail(layer, "", "the layer's size overflows 64-bit counters; reduce its dimensions");
    }
  }
  return product;
}

// Output length along one axis of a sliding window; resolves TensorFlow "same" padding first.
std::int64_t window_output(const Layer& layer, std::int64_t input, std::int64_t kernel, std::int64_t stride,
                           std::int64_t dilation, std::int64_t& pad_before, std::int64_t& pad_after, bool same,
                           bool ceil_mode, const char* axis) {
  const std::int64_t extent = dilation * (kernel - 1) + 1;
  if (same) {
    const std::int64_t outputs = (input + stride - 1) / stride;
    const std::int64_t total = std::max<std::int64_t>((outputs - 1) * stride + extent - input, 0);
    pad_before = total / 2;
    pad_after = total - pad_before;
  }
  const std::int64_t padded = input + pad_before + pad_after;
  if (extent > padded) {
    fail(layer, "kernel",
         fmt::format("the {} window spans {} but the padded input {} is only {} ({} + padding {} + {}); use a smaller "
                     "kernel or dilation, or more padding",
                     axis, extent, axis, padded, input, pad_before, pad_after));
  }
  std::int64_t output = (padded - extent) / stride + 1;
  if (ceil_mode && (padded - extent) % stride != 0) {
    ++output;
    if ((output - 1) * stride >= input + pad_before) --output;  // the last window must start inside
  }
  return output;
}

TensorShape window_output_shape(Layer& layer, Window& window, const TensorShape& input, std::int64_t channels,
                                bool ceil_mode) {
  Padding& pad = window.padding;
  const std::int64_t height = window_output(layer, input.height, window.kernel_h, window.stride_h, window.dilation_h,
                                            pad.top, pad.bottom, pad.same, ceil_mode, "height");
  const std::int64_t width = window_output(layer, input.width, window.kernel_w, window.stride_w, window.dilation_w,
                                           pad.left, pad.right, pad.same, ceil_mode, "width");
  pad.same = false;
  return {channels, height, width};
}

void expect_input_count(const Layer& layer, std::size_t minimum, std::size_t maximum) {
  const std::size_t count = layer.input_shapes.size();
  if (count < minimum || count > maximum) {
    const std::string expected = minimum == maximum ? std::to_string(minimum)
                                 : maximum == std::numeric_limits<std::size_t>::max()
                                     ? "at least " + std::to_string(minimum)
                                     : fmt::format("{} to {}", minimum, maximum);
    fail(layer, "inputs", fmt::format("{} takes {} input(s), got {}", op_name(layer.op), expected, count));
  }
}

void infer_conv(Layer& layer) {
  auto& conv = std::get<ConvParams>(layer.params);
  const TensorShape& input = layer.input_shapes[0];
  if (conv.depthwise) {
    conv.groups = input.channels;
    if (conv.filters == 0) conv.filters = input.channels;
  }
  if (input.channels % conv.groups != 0) {
    fail(layer, "groups", fmt::format("input channels {} are not divisible by groups {}", input.channels, conv.groups));
  }
  if (conv.depthwise && conv.filters % conv.groups != 0) {
    fail(layer, "filters",
         fmt::format("a depthwise conv needs filters that are a multiple of its {} input channels (got {})",
                     input.channels, conv.filters));
  }
  if (conv.filters % conv.groups != 0) {
    fail(layer, "filters", fmt::format("filters {} are not divisible by groups {}", conv.filters, conv.groups));
  }
  layer.output_shape = window_output_shape(layer, conv.window, input, conv.filters, false);
  const std::int64_t channels_per_group = input.channels / conv.groups;
  const Window& w = conv.window;
  layer.macs = checked_product(layer, {layer.output_shape.height, layer.output_shape.width, conv.filters, w.kernel_h,
                                       w.kernel_w, channels_per_group});
  layer.params_count = checked_product(layer, {conv.filters, w.kernel_h, w.kernel_w, channels_per_group}) +
                       static_cast<std::uint64_t>(conv.filters) * ((conv.bias ? 1 : 0) + (conv.batchnorm ? 2 : 0));
}

void infer_fully_connected(Layer& layer) {
  const auto& fc = layer.fully_connected();
  const std::int64_t inputs = layer.input_shapes[0].elements();
  layer.output_shape = {fc.outputs, 1, 1};
  layer.macs = checked_product(layer, {inputs, fc.outputs});
  layer.params_count =
      layer.macs + static_cast<std::uint64_t>(fc.outputs) * ((fc.bias ? 1 : 0) + (fc.batchnorm ? 2 : 0));
}

void expect_same_shapes(const Layer& layer) {
  for (std::size_t i = 1; i < layer.input_shapes.size(); ++i) {
    if (layer.input_shapes[i] != layer.input_shapes[0]) {
      fail(layer, "inputs",
           fmt::format("shape mismatch: '{}' is {} but '{}' is {}; {} takes inputs of one shape", layer.input_names[i],
                       layer.input_shapes[i].to_string(), layer.input_names[0], layer.input_shapes[0].to_string(),
                       op_name(layer.op)));
    }
  }
}

void infer_mul(Layer& layer) {
  const TensorShape& data = layer.input_shapes[0];
  const TensorShape& scale = layer.input_shapes[1];
  const bool channel_scale = scale.channels == data.channels && scale.height == 1 && scale.width == 1;
  if (scale != data && !channel_scale) {
    fail(layer, "inputs",
         fmt::format("'{}' is {}; it must equal '{}' {} or be a per-channel scale [{}, 1, 1]", layer.input_names[1],
                     scale.to_string(), layer.input_names[0], data.to_string(), data.channels));
  }
  layer.output_shape = data;
}

void infer_concat(Layer& layer) {
  TensorShape output = layer.input_shapes[0];
  for (std::size_t i = 1; i < layer.input_shapes.size(); ++i) {
    const TensorShape& shape = layer.input_shapes[i];
    if (shape.height != output.height || shape.width != output.width) {
      fail(layer, "inputs",
           fmt::format("concat needs equal height and width: '{}' is {} but '{}' is {}", layer.input_names[i],
                       shape.to_string(), layer.input_names[0], layer.input_shapes[0].to_string()));
    }
    output.channels += shape.channels;
  }
  layer.output_shape = output;
}

void infer_slice(Layer& layer) {
  const auto& slice = std::get<SliceParams>(layer.params);
  const TensorShape& input = layer.input_shapes[0];
  if (slice.begin >= slice.end || slice.end > input.channels) {
    fail(
        layer, "channels",
        fmt::format("[{}, {}) is not a channel range of the {}-channel input", slice.begin, slice.end, input.channels));
  }
  layer.output_shape = {slice.end - slice.begin, input.height, input.width};
}

// The product of a grouped GEMM: input `a` is [groups x K, H, W] (H x W rows of K features per group, as a
// 1x1 convolution reads its input), `b` holds groups x K x outputs values.
void infer_matmul(Layer& layer) {
  const auto& matmul = std::get<MatMulParams>(layer.params);
  const TensorShape& a = layer.input_shapes[0];
  if (a.channels % matmul.groups != 0) {
    fail(layer, "groups",
         fmt::format("the first input's {} channels are not divisible by {} groups", a.channels, matmul.groups));
  }
  const std::int64_t inner = a.channels / matmul.groups;
  const std::uint64_t b_elements = checked_product(layer, {matmul.groups, inner, matmul.outputs});
  if (static_cast<std::uint64_t>(layer.input_shapes[1].elements()) != b_elements) {
    fail(layer, "inputs",
         fmt::format("'{}' is {} ({} elements); a product of {} groups of {} x {} needs {}", layer.input_names[1],
                     layer.input_shapes[1].to_string(), layer.input_shapes[1].elements(), matmul.groups, inner,
                     matmul.outputs, b_elements));
  }
  layer.output_shape = {matmul.groups * matmul.outputs, a.height, a.width};
  layer.macs = checked_product(layer, {a.height, a.width, matmul.groups, inner, matmul.outputs});
}

void infer_elementwise(Layer& layer) {
  const auto& params = std::get<ElementwiseParams>(layer.params);
  if (params.shape) {
    layer.output_shape = *params.shape;
  } else {
    layer.output_shape = layer.input_shapes[0];
    for (const TensorShape& shape : layer.input_shapes) {
      if (shape.elements() > layer.output_shape.elements()) layer.output_shape = shape;
    }
  }
}

std::uint64_t elementwise_operations(const Layer& layer) {
  const auto& params = std::get<ElementwiseParams>(layer.params);
  const double operations = params.operations_per_element * static_cast<double>(layer.output_shape.elements());
  if (operations > 9e18) fail(layer, "operations_per_element", "the operation count overflows 64-bit counters");
  return static_cast<std::uint64_t>(std::llround(operations));
}

// Comparisons or additions of the pools, operations of the element-wise layers; activations are applied as
// results are written back and count nothing.
std::uint64_t vector_operations(const Layer& layer) {
  const auto out = static_cast<std::uint64_t>(layer.output_shape.elements());
  switch (layer.op) {
    case OpKind::kMaxPool:
    case OpKind::kAvgPool: {
      const Window& w = layer.pool().window;
      return checked_product(layer, {layer.output_shape.elements(), w.kernel_h, w.kernel_w});
    }
    case OpKind::kGlobalAvgPool:
    case OpKind::kGlobalMaxPool: return static_cast<std::uint64_t>(layer.input_shapes[0].elements());
    case OpKind::kAdd: return out * (layer.input_shapes.size() - 1);
    case OpKind::kMul:
    case OpKind::kUpsample: return out;
    case OpKind::kElementwise: return elementwise_operations(layer);
    default: return 0;
  }
}

void infer_layer_output(Layer& layer) {
  switch (layer.op) {
    case OpKind::kInput:
      layer.output_shape = std::get<InputParams>(layer.params).shape;
      checked_product(layer, {layer.output_shape.channels, layer.output_shape.height, layer.output_shape.width});
      return;
    case OpKind::kAdd:
      expect_input_count(layer, 2, std::numeric_limits<std::size_t>::max());
      expect_same_shapes(layer);
      layer.output_shape = layer.input_shapes[0];
      return;
    case OpKind::kMul:
      expect_input_count(layer, 2, 2);
      infer_mul(layer);
      return;
    case OpKind::kConcat:
      expect_input_count(layer, 2, std::numeric_limits<std::size_t>::max());
      infer_concat(layer);
      return;
    case OpKind::kLayout:
      expect_input_count(layer, 1, std::numeric_limits<std::size_t>::max());
      layer.output_shape = std::get<LayoutParams>(layer.params).shape;
      return;
    case OpKind::kElementwise:
      expect_input_count(layer, 1, std::numeric_limits<std::size_t>::max());
      infer_elementwise(layer);
      return;
    case OpKind::kMatMul:
      expect_input_count(layer, 2, 2);
      infer_matmul(layer);
      return;
    default: break;
  }
  expect_input_count(layer, 1, 1);
  const TensorShape& input = layer.input_shapes[0];
  switch (layer.op) {
    case OpKind::kConv: infer_conv(layer); break;
    case OpKind::kFullyConnected: infer_fully_connected(layer); break;
    case OpKind::kMaxPool:
    case OpKind::kAvgPool: {
      auto& pool = std::get<PoolParams>(layer.params);
      const Padding& pad = pool.window.padding;
      if (!pad.same && (std::max(pad.top, pad.bottom) > pool.window.kernel_h / 2 ||
                        std::max(pad.left, pad.right) > pool.window.kernel_w / 2)) {
        fail(layer, "padding", "pooling padding may be at most half the kernel; a window must not lie in padding only");
      }
      layer.output_shape = window_output_shape(layer, pool.window, input, input.channels, pool.ceil_mode);
      break;
    }
    case OpKind::kGlobalAvgPool:
    case OpKind::kGlobalMaxPool: layer.output_shape = {input.channels, 1, 1}; break;
    case OpKind::kSlice: infer_slice(layer); break;
    case OpKind::kUpsample: {
      const std::int64_t scale = std::get<UpsampleParams>(layer.params).scale;
      layer.output_shape = {input.channels, input.height * scale, input.width * scale};
      break;
    }
    default:  // activation
      layer.output_shape = input;
      break;
  }
  checked_product(layer, {layer.output_shape.channels, layer.output_shape.height, layer.output_shape.width});
}

}  // namespace

void infer_layer_shape(Layer& layer) {
  infer_layer_output(layer);
  layer.vector_ops = vector_operations(layer);
}

}  // namespace ergon
