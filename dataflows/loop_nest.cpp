#include "dataflows/loop_nest.hpp"

#include <stdexcept>

namespace ergon {

std::uint64_t LoopNest::operations() const {
  std::uint64_t total = 1;
  for (const std::int64_t factor : {images, groups, filters, channels, ofmap_h, ofmap_w, filter_h, filter_w}) {
    total *= static_cast<std::uint64_t>(factor);
  }
  return total;
}

bool has_loop_nest(const Layer& layer) {
  switch (layer.op) {
    case OpKind::kConv:
    case OpKind::kFullyConnected:
    case OpKind::kMatMul:
    case OpKind::kMaxPool:
    case OpKind::kAvgPool:
    case OpKind::kGlobalAvgPool:
    case OpKind::kGlobalMaxPool: return true;
    default: return false;
  }
}

namespace {

void set_window(LoopNest& nest, const Window& window) {
  nest.pad_top = window.padding.top;
  nest.pad_left = window.padding.left;
  nest.filter_h = window.kernel_h;
  nest.filter_w = window.kernel_w;
  nest.stride_h = window.stride_h;
  nest.stride_w = window.stride_w;
  nest.dilation_h = window.dilation_h;
  nest.dilation_w = window.dilation_w;
}

}  // namespace

LoopNest loop_nest_of(const Layer& layer, std::int64_t images) {
  if (!has_loop_nest(layer)) {
    throw std::invalid_argument("layer '" + layer.name + "' (" + op_name(layer.op) + ") has no PE-array loop nest");
  }
  const TensorShape& in = layer.input_shapes.at(0);
  const TensorShape& out = layer.output_shape;
  LoopNest nest;
  nest.images = images;
  nest.ofmap_h = out.height;
  nest.ofmap_w = out.width;
  nest.input_h = in.height;
  nest.input_w = in.width;
  switch (layer.op) {
    case OpKind::kConv:
      nest.groups = layer.conv().groups;
      nest.filters = layer.conv().filters / nest.groups;
      nest.channels = in.channels / nest.groups;
      set_window(nest, layer.conv().window);
      break;
    case OpKind::kMatMul: {  // a grouped 1x1 convolution whose weights are the second input
      const auto& matmul = std::get<MatMulParams>(layer.params);
      nest.groups = matmul.groups;
      nest.filters = matmul.outputs;
      nest.channels = in.channels / matmul.groups;
      break;
    }
    case OpKind::kFullyConnected:
      nest.filters = layer.fully_connected().outputs;
      nest.channels = in.channels;
      nest.filter_h = in.height;
      nest.filter_w = in.width;
      break;
    default: {  // pooling: one window per channel, like a depthwise convolution without weights
      const bool max = layer.op == OpKind::kMaxPool || layer.op == OpKind::kGlobalMaxPool;
      nest.kind = max ? LoopNestKind::kMaxPool : LoopNestKind::kAvgPool;
      nest.groups = in.channels;
      if (layer.op == OpKind::kMaxPool || layer.op == OpKind::kAvgPool) {
        set_window(nest, layer.pool().window);
      } else {
        nest.filter_h = in.height;
        nest.filter_w = in.width;
      }
    }
  }
  return nest;
}

}  // namespace ergon
