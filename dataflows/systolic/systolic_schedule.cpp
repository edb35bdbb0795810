#include "dataflows/systolic/systolic_schedule.hpp"

#include <algorithm>

#include "dataflows/integer_math.hpp"

namespace ergon {
namespace {

bool same(const IndexRange& a, const IndexRange& b) {
  return a.begin == b.begin && a.end == b.end;
}

// Which fold indices (spatial rows, spatial columns) an operand's block depends on.
struct Dependence {
  bool rows = false, cols = false;
};
Dependence ifmap_dependence(SystolicDataflow dataflow) {  // pixels and window positions
  return dataflow == SystolicDataflow::kInputStationary ? Dependence{true, true} : Dependence{true, false};
}
Dependence filter_dependence(SystolicDataflow dataflow) {  // window positions and filters
  switch (dataflow) {
    case SystolicDataflow::kOutputStationary: return {false, true};
    case SystolicDataflow::kWeightStationary: return {true, true};
    case SystolicDataflow::kInputStationary: return {true, false};
  }
  return {true, true};
}

}  // namespace

TensorCounts systolic_hop_shares(SystolicDataflow dataflow, std::uint64_t macs) {
  TensorCounts shares;
  shares[Tensor::kWeights] = dataflow == SystolicDataflow::kWeightStationary ? 0 : macs;
  shares[Tensor::kInputs] = dataflow == SystolicDataflow::kInputStationary ? 0 : macs;
  shares[Tensor::kOutputs] = dataflow == SystolicDataflow::kOutputStationary ? 0 : macs;
  return shares;
}

SystolicSchedule::SystolicSchedule(const LoopNest& nest, SystolicDataflow dataflow, std::int64_t array_rows,
                                   std::int64_t array_cols, SystolicBuffers buffers, SystolicFoldOrder order,
                                   bool im2col)
    : nest_(nest),
      dataflow_(dataflow),
      order_(order),
      array_rows_(array_rows),
      array_cols_(array_cols),
      buffers_(buffers),
      pixels_(nest.images * nest.ofmap_h * nest.ofmap_w),
      window_(nest.filter_h * nest.filter_w * nest.channels),
      im2col_(im2col) {
  switch (dataflow) {
    case SystolicDataflow::kOutputStationary:
      spatial_rows_ = pixels_, spatial_cols_ = nest.filters, temporal_ = window_;
      break;
    case SystolicDataflow::kWeightStationary:
      spatial_rows_ = window_, spatial_cols_ = nest.filters, temporal_ = pixels_;
      break;
    case SystolicDataflow::kInputStationary:
      spatial_rows_ = window_, spatial_cols_ = pixels_, temporal_ = nest.filters;
      break;
  }
  row_folds_ = ceil_div(spatial_rows_, array_rows_);
  col_folds_ = ceil_div(spatial_cols_, array_cols_);
  // Operands that fit half their buffer (the other half stages the next tile) are fetched once.
  const std::int64_t group_ifmap =
      im2col ? pixels_ * window_ : nest.images * nest.channels * nest.input_h * nest.input_w;
  ifmap_fits_ = group_ifmap <= buffers.ifmap_words / 2;
  filters_fit_ = window_ * nest.filters <= buffers.filter_words / 2;
}

std::uint64_t SystolicSchedule::fold_count() const {
  return as_count(nest_.groups * row_folds_ * col_folds_);
}

SystolicFold SystolicSchedule::fold(std::uint64_t index) const {
  const auto i = static_cast<std::int64_t>(index);
  const std::int64_t per_group = row_folds_ * col_folds_;
  const std::int64_t group = i / per_group, in_group = i % per_group;
  const bool columns_outer = order_ == SystolicFoldOrder::kColumnsOuter;
  const std::int64_t col_fold = columns_outer ? in_group / row_folds_ : in_group % col_folds_;
  const std::int64_t row_fold = columns_outer ? in_group % row_folds_ : in_group / col_folds_;
  SystolicFold fold;
  fold.group = group;
  fold.rows = {row_fold * array_rows_, std::min(spatial_rows_, (row_fold + 1) * array_rows_)};
  fold.cols = {col_fold * array_cols_, std::min(spatial_cols_, (col_fold + 1) * array_cols_)};
  fold.first_of_layer = index == 0;
  return fold;
}

// The stored ifmap words a set of output pixels and window positions touches: the input rows and channels
// they read, over the full input width (window index k = (r * S + s) * C + c, as SCALE-Sim lays it out).
std::uint64_t SystolicSchedule::ifmap_words_for_pixels(IndexRange pixels, IndexRange window) const {
  const std::int64_t per_image = nest_.ofmap_h * nest_.ofmap_w;
  const std::int64_t c = nest_.channels, s = nest_.filter_w;
  const std::int64_t first_r = window.begin / (s * c), last_r = (window.end - 1) / (s * c);
  const bool all_channels = window.size() >= c;
  const std::int64_t channels = all_channels ? c : std::min(c, window.size());
  std::uint64_t words = 0;
  for (std::int64_t image = pixels.begin / per_image; image <= (pixels.end - 1) / per_image; ++image) {
    const std::int64_t first_pixel = std::max(pixels.begin, image * per_image) - image * per_image;
    const std::int64_t last_pixel = std::min(pixels.end, (image + 1) * per_image) - 1 - image * per_image;
    const std::int64_t first_row = (first_pixel / nest_.ofmap_w) * nest_.stride_h + first_r * nest_.dilation_h;
    const std::int64_t last_row = (last_pixel / nest_.ofmap_w) * nest_.stride_h + last_r * nest_.dilation_h;
    const std::int64_t top = std::max(first_row - nest_.pad_top, std::int64_t{0});
    const std::int64_t bottom = std::min(last_row - nest_.pad_top, nest_.input_h - 1);
    if (bottom >= top) words += as_count((bottom - top + 1) * nest_.input_w * channels);
  }
  return words;
}

StepTraffic SystolicSchedule::traffic(const SystolicFold& fold, const std::optional<SystolicFold>& previous) const {
  IndexRange pixels{0, pixels_}, window{0, window_}, filters{0, nest_.filters};
  switch (dataflow_) {
    case SystolicDataflow::kOutputStationary: pixels = fold.rows, filters = fold.cols; break;
    case SystolicDataflow::kWeightStationary: window = fold.rows, filters = fold.cols; break;
    case SystolicDataflow::kInputStationary: window = fold.rows, pixels = fold.cols; break;
  }
  const std::uint64_t rows = as_count(fold.rows.size()), cols = as_count(fold.cols.size()), t = as_count(temporal_);
  StepTraffic traffic;
  traffic.macs = traffic.nonzero_macs = rows * cols * t;  // no zero gating in a systolic array
  traffic.active_pes = rows * cols;
  traffic.compute_cycles = t;
  traffic.fill_cycles = dataflow_ == SystolicDataflow::kOutputStationary ? 0 : as_count(array_rows_);
  // Buffer reads into the array and writes out of it, as SCALE-Sim counts them.
  std::uint64_t ifmap_reads = 0, filter_reads = 0, ofmap_writes = 0;
  switch (dataflow_) {
    case SystolicDataflow::kOutputStationary:
      ifmap_reads = rows * t, filter_reads = t * cols, ofmap_writes = rows * cols;
      break;
    case SystolicDataflow::kWeightStationary:
      ifmap_reads = t * rows, filter_reads = rows * cols, ofmap_writes = t * cols;
      break;
    case SystolicDataflow::kInputStationary:
      ifmap_reads = rows * cols, filter_reads = t * rows, ofmap_writes = t * cols;
      break;
  }
  traffic.ifmap_bus_words = ifmap_reads;
  traffic.filter_bus_words = filter_reads;
  traffic.psum_bus_words = ofmap_writes;
  traffic.psum_glb_writes = ofmap_writes;
  traffic.pe_hop_words = 2 * traffic.macs;  // two operands hop to a neighbour per MAC
  traffic.pe_hop_shares = systolic_hop_shares(dataflow_, traffic.macs);

  // DRAM: a block already fetched for the previous fold is on chip; an operand that depends only on the
  // inner fold index and fits its buffer is fetched during the first outer fold only.
  const bool columns_outer = order_ == SystolicFoldOrder::kColumnsOuter;
  const bool later_outer_fold = columns_outer ? fold.cols.begin > 0 : fold.rows.begin > 0;
  const auto on_chip = [&](Dependence depends, bool fits) {
    const bool same_block = previous && previous->group == fold.group &&
                            (!depends.rows || same(previous->rows, fold.rows)) &&
                            (!depends.cols || same(previous->cols, fold.cols));
    const bool inner_only = columns_outer ? depends.rows && !depends.cols : depends.cols && !depends.rows;
    return same_block || (fits && later_outer_fold && inner_only);
  };
  if (!on_chip(ifmap_dependence(dataflow_), ifmap_fits_)) {
    traffic.ifmap_dram_words = traffic.ifmap_dram_stored_words =
        im2col_ ? as_count(pixels.size() * window.size()) : ifmap_words_for_pixels(pixels, window);
  }
  if (!on_chip(filter_dependence(dataflow_), filters_fit_)) {
    traffic.filter_dram_words = as_count(window.size() * filters.size());
  }
  // Outputs are complete once the whole window has been accumulated.
  const bool complete = window.end == window_;
  traffic.ofmap_dram_words = complete ? as_count(pixels.size() * filters.size()) : 0;
  traffic.glb_reads = ifmap_reads + filter_reads + traffic.ofmap_dram_words;
  traffic.glb_writes = ofmap_writes + traffic.ifmap_dram_words + traffic.filter_dram_words;
  return traffic;
}

std::uint64_t SystolicSchedule::staging_words() const {
  std::uint64_t ifmap_block = 0, output_block = 0;
  for_each_fold([&](const SystolicFold& /*fold*/, const StepTraffic& t) {
    ifmap_block = std::max(ifmap_block, t.ifmap_dram_words);
    output_block = std::max(output_block, t.psum_glb_writes);
  });
  const std::uint64_t kept_ifmap =
      ifmap_fits_
          ? as_count(im2col_ ? pixels_ * window_ : nest_.images * nest_.channels * nest_.input_h * nest_.input_w)
          : 0;
  const std::uint64_t words = std::max(2 * ifmap_block, kept_ifmap) + 2 * output_block;
  return std::min(words, as_count(buffers_.ifmap_words + buffers_.ofmap_words));
}

}  // namespace ergon
