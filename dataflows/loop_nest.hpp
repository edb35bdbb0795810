#pragma once
// A layer's computation as a hardware-independent loop nest (Timeloop's split: the problem here, the
// hardware in arch/). Convolution per group: for n, g, m, c, e, f, r, s:
//   out[n][g][m][e][f] += in[n][g][c][e*U + r*D][f*V + s*D] * w[g][m][c][r][s]
// FC is a convolution whose filter covers the whole (flattened-shape) input; pooling is a depthwise
// window with no weights.
#include <cstdint>

#include "network/layer.hpp"

namespace ergon {

// Positions [begin, end) along one dimension.
struct IndexRange {
  std::int64_t begin = 0;
  std::int64_t end = 0;
  std::int64_t size() const { return end - begin; }
};

enum class LoopNestKind { kConv, kMaxPool, kAvgPool };

struct LoopNest {
  LoopNestKind kind = LoopNestKind::kConv;
  std::int64_t images = 1;    // N: processed together
  std::int64_t groups = 1;    // G
  std::int64_t filters = 1;   // M per group
  std::int64_t channels = 1;  // C per group
  std::int64_t ofmap_h = 1;   // E
  std::int64_t ofmap_w = 1;   // F
  std::int64_t filter_h = 1;  // R
  std::int64_t filter_w = 1;  // S
  std::int64_t stride_h = 1;  // U
  std::int64_t stride_w = 1;  // V
  std::int64_t dilation_h = 1;
  std::int64_t dilation_w = 1;
  // The stored (unpadded) input and where it sits in the padded input the loops read.
  std::int64_t input_h = 1;
  std::int64_t input_w = 1;
  std::int64_t pad_top = 0;
  std::int64_t pad_left = 0;

  std::int64_t ifmap_h() const { return (ofmap_h - 1) * stride_h + (filter_h - 1) * dilation_h + 1; }  // padded
  std::int64_t ifmap_w() const { return (ofmap_w - 1) * stride_w + (filter_w - 1) * dilation_w + 1; }
  // Multiply-accumulates (or window operations, for pooling) over all images.
  std::uint64_t operations() const;
};

// True for the layers a PE array executes (conv, fc, max/avg pooling, global pooling).
bool has_loop_nest(const Layer& layer);
// The loop nest of such a layer with `images` processed together; throws std::invalid_argument otherwise.
LoopNest loop_nest_of(const Layer& layer, std::int64_t images);

}  // namespace ergon
