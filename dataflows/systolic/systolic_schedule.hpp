#pragma once
// A conv or fc layer on a systolic array, lowered to a GEMM per group in the im2col way: Npx output
// pixels (over the batch) x a window of K = R*S*C x M filters. The dataflow decides which two dimensions
// are spread over the array's rows and columns and which one streams in time (SCALE-Sim's convention,
// docs/scalesim-reference.md): output stationary Sr = Npx, Sc = M, T = K; weight stationary Sr = K,
// Sc = M, T = Npx; input stationary Sr = K, Sc = Npx, T = M. The array covers Sr x Sc in folds of at most
// rows x cols, column folds outer and row folds inner (SCALE-Sim's order) or the other way round; each fold is
// one step of T streamed steps; weight and input stationary may split T into stream tiles (outermost within a
// group) so that a tile's partial sums fit the output buffer. The ifmap is fetched as the tensor rows a fold
// touches, or (`im2col`, as SCALE-Sim v2 does) as the fold's block of the im2col operand matrix, every window
// position apart. Which blocks stay on chip between folds is FoldReuse's rule (docs/dataflow.md).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "arch/accelerator_config.hpp"
#include "dataflows/loop_nest.hpp"
#include "dataflows/step_traffic.hpp"
#include "dataflows/systolic/buffer_replay.hpp"

namespace ergon {

enum class SystolicFoldOrder { kColumnsOuter, kRowsOuter };

// The words hopping between neighbouring PEs, by tensor, for `macs` MACs: the two tensors that move each
// hop once per MAC (output stationary: inputs and weights; weight stationary: inputs and partial sums;
// input stationary: weights and partial sums).
TensorCounts systolic_hop_shares(SystolicDataflow dataflow, std::uint64_t macs);

struct SystolicBuffers {  // values each on-chip buffer holds, and how it keeps blocks between folds
  std::int64_t ifmap_words = 0;
  std::int64_t filter_words = 0;  // weights, of weight_bits each
  std::int64_t ofmap_words = 0;
  FoldReuse reuse = FoldReuse::kPreviousFold;
  int word_bits = 8;
  int weight_bits = 8;       // pe_array.weight_bits: narrower weights pack into the filter buffer
  int accumulator_bits = 8;  // a partial sum's width in the ofmap buffer and when spilled
  // Weights `words` words of word_bits hold, and the words `weights` weights take (rounded up).
  std::int64_t weights_in(std::int64_t words) const { return words * word_bits / weight_bits; }
  std::int64_t words_for_weights(std::int64_t weights) const {
    return (weights * weight_bits + word_bits - 1) / word_bits;
  }
  bool split_by_planner = false;  // glb.unified: the planner chose this split for the layer
  bool pipelined_folds = false;   // pe_array.pipelined_folds
};

struct SystolicFold {
  std::int64_t group = 0;
  IndexRange rows;    // of Sr
  IndexRange cols;    // of Sc
  IndexRange stream;  // of T
  bool first_of_layer = false;
};

// DRAM words of one fold under FoldReuse::kCapacity (systolic_reuse.hpp).
struct FoldDram {
  std::uint64_t ifmap_words = 0;
  std::uint64_t filter_words = 0;
  std::uint64_t psum_spill_read_words = 0;
  std::uint64_t psum_spill_write_words = 0;
};

// Words of one group's ifmap as the buffers hold it: the stored tensor, or its im2col operand matrix.
std::int64_t group_ifmap_words(const LoopNest& nest, bool im2col);

// `nest` with `channel_group` of its groups run at once (SystolicSchedule's channel_group).
LoopNest grouped_nest(const LoopNest& nest, std::int64_t channel_group);

class SystolicSchedule {
 public:
  SystolicSchedule(const LoopNest& nest, SystolicDataflow dataflow, std::int64_t array_rows, std::int64_t array_cols,
                   SystolicBuffers buffers, SystolicFoldOrder order = SystolicFoldOrder::kColumnsOuter,
                   bool im2col = false, std::int64_t stream_tile = 0,  // 0: T whole
                   std::int64_t channel_group = 1);
  // channel_group > 1: `nest` runs `channel_group` of a grouped layer's groups at once, as one group whose
  // channels and filters are theirs side by side and whose filters are block-diagonal (the other groups'
  // weights are zeros, gated): grouped_nest() builds it.

  const LoopNest& nest() const { return nest_; }
  SystolicDataflow dataflow() const { return dataflow_; }
  SystolicFoldOrder fold_order() const { return order_; }
  std::int64_t array_rows() const { return array_rows_; }
  std::int64_t array_cols() const { return array_cols_; }
  std::int64_t pixels() const { return pixels_; }              // Npx over the batch
  std::int64_t window() const { return window_; }              // K
  std::int64_t spatial_rows() const { return spatial_rows_; }  // Sr
  std::int64_t spatial_cols() const { return spatial_cols_; }  // Sc
  std::int64_t temporal() const { return temporal_; }          // T
  std::int64_t stream_tile() const { return stream_tile_; }    // T per fold, at most
  std::int64_t channel_group() const { return channel_group_; }
  const SystolicBuffers& buffers() const { return buffers_; }
  bool im2col() const { return im2col_; }
  std::uint64_t fold_count() const;
  SystolicFold fold(std::uint64_t index) const;

  // What fold `index` moves and computes; `previous` is the fold before (none for the first). The
  // compute_cycles field is its stream length and fill_cycles the stationary operand's shift-in: the array
  // adds its own wavefront skew. DRAM traffic follows buffers().reuse: under kPreviousFold an operand block
  // the previous fold used is still on chip, and an operand that depends only on the inner fold index and
  // fits half its buffer is fetched during the first outer fold only; under kCapacity, fold_dram().
  StepTraffic traffic(std::uint64_t index, const SystolicFold& fold, const std::optional<SystolicFold>& previous) const;
  // Calls visit(fold, traffic) for every fold in order, each fold's traffic given the one before it.
  template <typename Visit>
  void for_each_fold(Visit&& visit) const {
    std::optional<SystolicFold> previous;
    for (std::uint64_t i = 0; i < fold_count(); ++i) {
      const SystolicFold current = fold(i);
      visit(current, traffic(i, current, previous));
      previous = current;
    }
  }
  // The output pixels, window positions and filters a fold covers.
  IndexRange fold_pixels(const SystolicFold& fold) const;
  IndexRange fold_window(const SystolicFold& fold) const;
  IndexRange fold_filters(const SystolicFold& fold) const;

  // Words of the ifmap and ofmap buffers the layer occupies: two folds' ifmap and output blocks (one
  // computing, one loading), and the whole ifmap when it is kept across the outer folds; at most the buffers.
  std::uint64_t staging_words() const;

 private:
  std::int64_t window_in_block(IndexRange window, std::int64_t block) const;
  std::uint64_t weight_pairs(IndexRange window, IndexRange filters) const;
  struct BlockGrid;
  BlockGrid block_grid() const;
  void add_ifmap_blocks(const SystolicFold& fold, const BlockGrid& grid, FoldBlockUses& uses) const;
  void add_filter_blocks(const SystolicFold& fold, const BlockGrid& grid, FoldBlockUses& uses) const;
  void add_psum_blocks(const SystolicFold& fold, const BlockGrid& grid, FoldBlockUses& uses) const;
  void replay_buffers();
  std::uint64_t ifmap_words_for_pixels(IndexRange pixels, IndexRange window) const;
  // Calls visit(image, top, bottom) for each image `pixels` covers, with the band of stored input rows
  // [top, bottom] its pixels and the window rows of `window` read (bottom < top: none).
  template <typename Visit>
  void for_each_row_band(IndexRange pixels, IndexRange window, Visit&& visit) const {
    const std::int64_t per_image = nest_.ofmap_h * nest_.ofmap_w, row_span = nest_.filter_w * nest_.channels;
    const std::int64_t first_r = window.begin / row_span, last_r = (window.end - 1) / row_span;
    for (std::int64_t image = pixels.begin / per_image; image <= (pixels.end - 1) / per_image; ++image) {
      const std::int64_t first_pixel = std::max(pixels.begin, image * per_image) - image * per_image;
      const std::int64_t last_pixel = std::min(pixels.end, (image + 1) * per_image) - 1 - image * per_image;
      const std::int64_t first_row = first_pixel / nest_.ofmap_w * nest_.stride_h + first_r * nest_.dilation_h;
      const std::int64_t last_row = last_pixel / nest_.ofmap_w * nest_.stride_h + last_r * nest_.dilation_h;
      visit(image, std::max(first_row - nest_.pad_top, std::int64_t{0}),
            std::min(last_row - nest_.pad_top, nest_.input_h - 1));
    }
  }
  void previous_fold_dram(const SystolicFold& fold, const std::optional<SystolicFold>& previous,
                          StepTraffic& traffic) const;

  LoopNest nest_;
  SystolicDataflow dataflow_;
  SystolicFoldOrder order_;
  std::int64_t array_rows_, array_cols_;
  SystolicBuffers buffers_;
  std::int64_t pixels_, window_, spatial_rows_, spatial_cols_, temporal_;
  std::int64_t row_folds_, col_folds_, stream_tile_, stream_tiles_;
  bool im2col_;
  std::int64_t channel_group_, block_channels_, block_filters_;
  bool ifmap_fits_, filters_fit_;
  std::vector<FoldDram> capacity_dram_;  // per fold, under FoldReuse::kCapacity
};

}  // namespace ergon
