#include "dataflows/systolic/systolic_schedule.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

#include "dataflows/integer_math.hpp"

namespace ergon {
namespace {

bool same(const IndexRange& a, const IndexRange& b) {
  return a.begin == b.begin && a.end == b.end;
}

// Which fold ranges (spatial rows, spatial columns, stream) an operand's block depends on.
struct Dependence {
  bool rows = false, cols = false, stream = false;
};
Dependence ifmap_dependence(SystolicDataflow dataflow) {  // pixels and window positions
  return dataflow == SystolicDataflow::kInputStationary ? Dependence{true, true, false} : Dependence{true, false, true};
}
Dependence filter_dependence(SystolicDataflow dataflow) {  // window positions and filters
  switch (dataflow) {
    case SystolicDataflow::kOutputStationary: return {false, true, true};
    case SystolicDataflow::kWeightStationary: return {true, true, false};
    case SystolicDataflow::kInputStationary: return {true, false, true};
  }
  return {true, true, true};
}

// The chunks of [0, size) that `range` covers, `chunk` long each: [first, last].
std::pair<std::int64_t, std::int64_t> chunks_of(IndexRange range, std::int64_t chunk) {
  return {range.begin / chunk, (range.end - 1) / chunk};
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
                                   bool im2col, std::int64_t stream_tile, std::int64_t channel_group)
    : nest_(nest),
      dataflow_(dataflow),
      order_(order),
      array_rows_(array_rows),
      array_cols_(array_cols),
      buffers_(buffers),
      pixels_(nest.images * nest.ofmap_h * nest.ofmap_w),
      window_(nest.filter_h * nest.filter_w * nest.channels),
      im2col_(im2col),
      channel_group_(channel_group),
      block_channels_(nest.channels / channel_group),
      block_filters_(nest.filters / channel_group) {
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
  // Output stationary accumulates the whole window in the PEs: its stream is never split.
  const bool splittable = dataflow != SystolicDataflow::kOutputStationary && stream_tile > 0;
  stream_tile_ = splittable ? std::min(stream_tile, temporal_) : temporal_;
  stream_tiles_ = ceil_div(temporal_, stream_tile_);
  // Operands that fit half their buffer (the other half stages the next tile) are fetched once.
  ifmap_fits_ = group_ifmap_words(nest, im2col) <= buffers.ifmap_words / 2;
  filters_fit_ = window_ * nest.filters <= buffers.filter_words / 2;
  if (buffers.reuse == FoldReuse::kCapacity) replay_buffers();
}

std::int64_t group_ifmap_words(const LoopNest& nest, bool im2col) {
  return im2col ? nest.images * nest.ofmap_h * nest.ofmap_w * nest.filter_h * nest.filter_w * nest.channels
                : nest.images * nest.channels * nest.input_h * nest.input_w;
}

LoopNest grouped_nest(const LoopNest& nest, std::int64_t channel_group) {
  LoopNest grouped = nest;
  grouped.groups = nest.groups / channel_group;
  grouped.channels = nest.channels * channel_group;
  grouped.filters = nest.filters * channel_group;
  return grouped;
}

// Window positions (k = (r * S + s) * C + c) in `window` whose channel c lies in channel block `block`.
std::int64_t SystolicSchedule::window_in_block(IndexRange window, std::int64_t block) const {
  const std::int64_t c = nest_.channels;
  const auto up_to = [&](std::int64_t k) {
    return k / c * block_channels_ + std::clamp(k % c - block * block_channels_, std::int64_t{0}, block_channels_);
  };
  return up_to(window.end) - up_to(window.begin);
}

// The (window position, filter) pairs of `window` x `filters` that hold a weight: all of them, or with
// channel groups only those of the block diagonal.
std::uint64_t SystolicSchedule::weight_pairs(IndexRange window, IndexRange filters) const {
  if (channel_group_ == 1) return as_count(window.size() * filters.size());
  std::uint64_t pairs = 0;
  for (std::int64_t block = filters.begin / block_filters_; block <= (filters.end - 1) / block_filters_; ++block) {
    const std::int64_t block_filters =
        overlap_length(filters.begin, filters.end, block * block_filters_, (block + 1) * block_filters_);
    pairs += as_count(window_in_block(window, block) * block_filters);
  }
  return pairs;
}

std::uint64_t SystolicSchedule::fold_count() const {
  return as_count(nest_.groups * stream_tiles_ * row_folds_ * col_folds_);
}

SystolicFold SystolicSchedule::fold(std::uint64_t index) const {
  const auto i = static_cast<std::int64_t>(index);
  const std::int64_t per_tile = row_folds_ * col_folds_, per_group = per_tile * stream_tiles_;
  const std::int64_t group = i / per_group, tile = i % per_group / per_tile, in_tile = i % per_tile;
  const bool columns_outer = order_ == SystolicFoldOrder::kColumnsOuter;
  const std::int64_t col_fold = columns_outer ? in_tile / row_folds_ : in_tile % col_folds_;
  const std::int64_t row_fold = columns_outer ? in_tile % row_folds_ : in_tile / col_folds_;
  SystolicFold fold;
  fold.group = group;
  fold.rows = {row_fold * array_rows_, std::min(spatial_rows_, (row_fold + 1) * array_rows_)};
  fold.cols = {col_fold * array_cols_, std::min(spatial_cols_, (col_fold + 1) * array_cols_)};
  fold.stream = {tile * stream_tile_, std::min(temporal_, (tile + 1) * stream_tile_)};
  fold.first_of_layer = index == 0;
  return fold;
}

IndexRange SystolicSchedule::fold_pixels(const SystolicFold& fold) const {
  switch (dataflow_) {
    case SystolicDataflow::kOutputStationary: return fold.rows;
    case SystolicDataflow::kWeightStationary: return fold.stream;
    case SystolicDataflow::kInputStationary: return fold.cols;
  }
  return fold.rows;
}

IndexRange SystolicSchedule::fold_window(const SystolicFold& fold) const {
  return dataflow_ == SystolicDataflow::kOutputStationary ? fold.stream : fold.rows;
}

IndexRange SystolicSchedule::fold_filters(const SystolicFold& fold) const {
  return dataflow_ == SystolicDataflow::kInputStationary ? fold.stream : fold.cols;
}

// Block grids of the capacity replay: a spatial dimension in the array's folds, a streamed one in chunks
// of the array's rows; ifmap rows one channel chunk at a time, channel chunks aligned to every window fold.
struct SystolicSchedule::BlockGrid {
  std::int64_t pixel_chunk, window_chunk, filter_chunk, channel_chunk;
  std::int64_t pixel_chunks, window_chunks, filter_chunks, channel_chunks;
};

SystolicSchedule::BlockGrid SystolicSchedule::block_grid() const {
  BlockGrid grid;
  const bool input_stationary = dataflow_ == SystolicDataflow::kInputStationary;
  grid.pixel_chunk = input_stationary ? array_cols_ : array_rows_;
  grid.window_chunk = array_rows_;
  grid.filter_chunk = input_stationary ? array_rows_ : array_cols_;
  grid.channel_chunk =
      dataflow_ == SystolicDataflow::kOutputStationary ? nest_.channels : std::gcd(nest_.channels, array_rows_);
  grid.pixel_chunks = ceil_div(pixels_, grid.pixel_chunk);
  grid.window_chunks = ceil_div(window_, grid.window_chunk);
  grid.filter_chunks = ceil_div(nest_.filters, grid.filter_chunk);
  grid.channel_chunks = nest_.channels / grid.channel_chunk;
  return grid;
}

// The ifmap blocks a fold reads: each input row (of the band its pixels and window rows touch) of each
// channel chunk its window touches, or its im2col block.
void SystolicSchedule::add_ifmap_blocks(const SystolicFold& fold, const BlockGrid& grid, FoldBlockUses& uses) const {
  const IndexRange pixels = fold_pixels(fold), window = fold_window(fold);
  if (im2col_) {
    const auto [p0, p1] = chunks_of(pixels, grid.pixel_chunk);
    const auto [k0, k1] = chunks_of(window, grid.window_chunk);
    for (std::int64_t p = p0; p <= p1; ++p) {
      for (std::int64_t k = k0; k <= k1; ++k) {
        const std::int64_t values = overlap_length(p * grid.pixel_chunk, (p + 1) * grid.pixel_chunk, 0, pixels_) *
                                    overlap_length(k * grid.window_chunk, (k + 1) * grid.window_chunk, 0, window_);
        uses.add(static_cast<std::uint32_t>((fold.group * grid.pixel_chunks + p) * grid.window_chunks + k),
                 as_count(values));
      }
    }
    return;
  }
  const std::int64_t c = nest_.channels;
  std::vector<std::int64_t> channel_chunks;  // touched by the window, in order
  if (window.size() >= c) {
    for (std::int64_t chunk = 0; chunk < grid.channel_chunks; ++chunk) channel_chunks.push_back(chunk);
  } else {
    for (std::int64_t k = window.begin; k < window.end; ++k) {
      const std::int64_t chunk = k % c / grid.channel_chunk;
      if (std::find(channel_chunks.begin(), channel_chunks.end(), chunk) == channel_chunks.end()) {
        channel_chunks.push_back(chunk);
      }
    }
  }
  const auto row_values = as_count(nest_.input_w * grid.channel_chunk);
  for_each_row_band(pixels, window, [&](std::int64_t image, std::int64_t top, std::int64_t bottom) {
    for (std::int64_t y = top; y <= bottom; ++y) {
      for (const std::int64_t chunk : channel_chunks) {
        const std::int64_t row = (fold.group * nest_.images + image) * nest_.input_h + y;
        uses.add(static_cast<std::uint32_t>(row * grid.channel_chunks + chunk), row_values);
      }
    }
  });
}

void SystolicSchedule::add_filter_blocks(const SystolicFold& fold, const BlockGrid& grid, FoldBlockUses& uses) const {
  const auto [k0, k1] = chunks_of(fold_window(fold), grid.window_chunk);
  const auto [m0, m1] = chunks_of(fold_filters(fold), grid.filter_chunk);
  for (std::int64_t k = k0; k <= k1; ++k) {
    for (std::int64_t m = m0; m <= m1; ++m) {
      const IndexRange window{k * grid.window_chunk, std::min((k + 1) * grid.window_chunk, window_)};
      const IndexRange filters{m * grid.filter_chunk, std::min((m + 1) * grid.filter_chunk, nest_.filters)};
      uses.add(static_cast<std::uint32_t>((fold.group * grid.window_chunks + k) * grid.filter_chunks + m),
               weight_pairs(window, filters));
    }
  }
}

void SystolicSchedule::add_psum_blocks(const SystolicFold& fold, const BlockGrid& grid, FoldBlockUses& uses) const {
  const auto [p0, p1] = chunks_of(fold_pixels(fold), grid.pixel_chunk);
  const auto [m0, m1] = chunks_of(fold_filters(fold), grid.filter_chunk);
  for (std::int64_t p = p0; p <= p1; ++p) {
    for (std::int64_t m = m0; m <= m1; ++m) {
      const std::int64_t values = overlap_length(p * grid.pixel_chunk, (p + 1) * grid.pixel_chunk, 0, pixels_) *
                                  overlap_length(m * grid.filter_chunk, (m + 1) * grid.filter_chunk, 0, nest_.filters);
      uses.add(static_cast<std::uint32_t>((fold.group * grid.pixel_chunks + p) * grid.filter_chunks + m),
               as_count(values));
    }
  }
}

// FoldReuse::kCapacity: each buffer replayed over the folds (buffer_replay.hpp). Partial sums live in the
// ofmap buffer at the accumulator width; output stationary keeps them in the PEs instead.
void SystolicSchedule::replay_buffers() {
  const BlockGrid grid = block_grid();
  const auto count = [](std::int64_t blocks) { return static_cast<std::uint32_t>(blocks); };
  const std::int64_t ifmap_blocks = im2col_ ? nest_.groups * grid.pixel_chunks * grid.window_chunks
                                            : nest_.groups * nest_.images * nest_.input_h * grid.channel_chunks;
  FoldBlockUses ifmap(count(ifmap_blocks));
  FoldBlockUses filters(count(nest_.groups * grid.window_chunks * grid.filter_chunks));
  FoldBlockUses psums(count(nest_.groups * grid.pixel_chunks * grid.filter_chunks));
  const bool accumulates = dataflow_ != SystolicDataflow::kOutputStationary;
  for (std::uint64_t i = 0; i < fold_count(); ++i) {
    const SystolicFold current = fold(i);
    add_ifmap_blocks(current, grid, ifmap);
    add_filter_blocks(current, grid, filters);
    if (accumulates) add_psum_blocks(current, grid, psums);
    ifmap.end_fold(), filters.end_fold(), psums.end_fold();
  }
  const BufferTraffic ifmap_traffic = replay_buffer(ifmap, as_count(buffers_.ifmap_words), false);
  const BufferTraffic filter_traffic = replay_buffer(filters, as_count(buffers_.filter_words), false);
  const std::uint64_t psum_capacity =
      as_count(buffers_.ofmap_words) * as_count(buffers_.word_bits) / as_count(buffers_.accumulator_bits);
  const BufferTraffic psum_traffic = replay_buffer(psums, psum_capacity, true);
  capacity_dram_.resize(fold_count());
  for (std::size_t i = 0; i < capacity_dram_.size(); ++i) {
    capacity_dram_[i] = {ifmap_traffic.filled[i], filter_traffic.filled[i], psum_traffic.filled[i],
                         psum_traffic.spilled[i]};
  }
}

// The stored ifmap words a set of output pixels and window positions touches: the input rows and channels
// they read, over the full input width (window index k = (r * S + s) * C + c, as SCALE-Sim lays it out).
std::uint64_t SystolicSchedule::ifmap_words_for_pixels(IndexRange pixels, IndexRange window) const {
  const std::int64_t channels = std::min(nest_.channels, window.size());
  std::uint64_t words = 0;
  for_each_row_band(pixels, window, [&](std::int64_t /*image*/, std::int64_t top, std::int64_t bottom) {
    if (bottom >= top) words += as_count((bottom - top + 1) * nest_.input_w * channels);
  });
  return words;
}

StepTraffic SystolicSchedule::traffic(std::uint64_t index, const SystolicFold& fold,
                                      const std::optional<SystolicFold>& previous) const {
  const IndexRange pixels = fold_pixels(fold), window = fold_window(fold), filters = fold_filters(fold);
  const std::uint64_t rows = as_count(fold.rows.size()), cols = as_count(fold.cols.size());
  const std::uint64_t t = as_count(fold.stream.size());
  StepTraffic traffic;
  // No zero gating in a systolic array, except a channel group's zero weights.
  traffic.macs = traffic.nonzero_macs = as_count(pixels.size()) * weight_pairs(window, filters);
  traffic.active_pes = rows * cols;
  traffic.compute_cycles = t;
  traffic.fill_cycles = dataflow_ == SystolicDataflow::kOutputStationary ? 0 : as_count(array_rows_);
  if (buffers_.pipelined_folds && previous) {
    // The PEs hold a second copy of the stationary operand (weight or input stationary) or of the
    // accumulators (output stationary): this fold's shift-in, or the previous fold's result drain, takes
    // `rows` cycles during the previous fold's stream, and waits only for what that stream leaves over.
    traffic.fill_cycles = as_count(std::max<std::int64_t>(array_rows_ - previous->stream.size(), 0));
  }
  traffic.skew_overlapped = buffers_.pipelined_folds && index + 1 < fold_count();
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
  const std::uint64_t slots = rows * cols * t;  // MAC slots, a channel group's gated ones included
  traffic.pe_hop_words = 2 * slots;             // two operands hop to a neighbour per slot
  traffic.pe_hop_shares = systolic_hop_shares(dataflow_, slots);

  if (buffers_.reuse == FoldReuse::kCapacity) {
    const FoldDram& dram = capacity_dram_[index];
    traffic.ifmap_dram_words = traffic.ifmap_dram_stored_words = dram.ifmap_words;
    traffic.filter_dram_words = dram.filter_words;
    traffic.psum_spill_read_words = dram.psum_spill_read_words;
    traffic.psum_spill_write_words = dram.psum_spill_write_words;
  } else {
    previous_fold_dram(fold, previous, traffic);
    if (traffic.ifmap_dram_words > 0) {
      traffic.ifmap_dram_words = traffic.ifmap_dram_stored_words =
          im2col_ ? as_count(pixels.size() * window.size()) : ifmap_words_for_pixels(pixels, window);
    }
    if (traffic.filter_dram_words > 0) traffic.filter_dram_words = weight_pairs(window, filters);
  }
  // Outputs are complete once the whole window has been accumulated.
  const bool complete = window.end == window_;
  traffic.ofmap_dram_words = complete ? as_count(pixels.size() * filters.size()) : 0;
  traffic.glb_reads = ifmap_reads + filter_reads + traffic.ofmap_dram_words + traffic.psum_spill_write_words;
  traffic.glb_writes =
      ofmap_writes + traffic.ifmap_dram_words + traffic.filter_dram_words + traffic.psum_spill_read_words;
  return traffic;
}

// FoldReuse::kPreviousFold: a block already fetched for the previous fold is on chip; an operand that
// depends only on the inner fold index and fits its buffer is fetched during the first outer fold only.
// Marks the operands to fetch with 1 word; traffic() sizes them.
void SystolicSchedule::previous_fold_dram(const SystolicFold& fold, const std::optional<SystolicFold>& previous,
                                          StepTraffic& traffic) const {
  const bool columns_outer = order_ == SystolicFoldOrder::kColumnsOuter;
  const bool later_outer_fold = columns_outer ? fold.cols.begin > 0 : fold.rows.begin > 0;
  const auto on_chip = [&](Dependence depends, bool fits) {
    const bool same_block =
        previous && previous->group == fold.group && (!depends.rows || same(previous->rows, fold.rows)) &&
        (!depends.cols || same(previous->cols, fold.cols)) && (!depends.stream || same(previous->stream, fold.stream));
    const bool inner_only = columns_outer ? depends.rows && !depends.cols : depends.cols && !depends.rows;
    return same_block || (fits && later_outer_fold && inner_only);
  };
  traffic.ifmap_dram_words = on_chip(ifmap_dependence(dataflow_), ifmap_fits_) ? 0 : 1;
  traffic.filter_dram_words = on_chip(filter_dependence(dataflow_), filters_fit_) ? 0 : 1;
}

std::uint64_t SystolicSchedule::staging_words() const {
  std::uint64_t ifmap_block = 0, output_block = 0;
  for_each_fold([&](const SystolicFold& /*fold*/, const StepTraffic& t) {
    ifmap_block = std::max(ifmap_block, t.ifmap_dram_words);
    output_block = std::max(output_block, t.psum_glb_writes);
  });
  const std::uint64_t kept_ifmap = ifmap_fits_ ? as_count(group_ifmap_words(nest_, im2col_)) : 0;
  const std::uint64_t words = std::max(2 * ifmap_block, kept_ifmap) + 2 * output_block;
  return std::min(words, as_count(buffers_.ifmap_words + buffers_.ofmap_words));
}

}  // namespace ergon
