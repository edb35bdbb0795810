#include "dataflows/row_stationary/step_traffic.hpp"

#include <algorithm>

#include "dataflows/integer_math.hpp"

namespace ergon {
namespace {
using u64 = std::uint64_t;
}  // namespace

std::uint64_t valid_taps(IndexRange outputs, IndexRange taps, std::int64_t stride, std::int64_t dilation,
                         std::int64_t pad, std::int64_t extent) {
  u64 valid = 0;
  for (std::int64_t k = taps.begin; k < taps.end; ++k) {
    // Outputs o with 0 <= o * stride + k * dilation - pad < extent.
    const std::int64_t offset = k * dilation - pad;
    const std::int64_t low = offset >= 0 ? 0 : ceil_div(-offset, stride);
    const std::int64_t high = extent - offset <= 0 ? 0 : ceil_div(extent - offset, stride);  // exclusive
    valid += as_count(std::max<std::int64_t>(0, std::min(high, outputs.end) - std::max(low, outputs.begin)));
  }
  return valid;
}

StepInput step_input(const LoopNest& nest, const RowStationaryStep& step) {
  StepInput input;
  input.rows = {step.ofmap_rows.begin * nest.stride_h + step.filter_rows.begin * nest.dilation_h,
                (step.ofmap_rows.end - 1) * nest.stride_h + (step.filter_rows.end - 1) * nest.dilation_h + 1};
  input.cols = {step.filter_cols.begin * nest.dilation_w,
                (nest.ofmap_w - 1) * nest.stride_w + (step.filter_cols.end - 1) * nest.dilation_w + 1};
  return input;
}

StepTraffic step_traffic(const LoopNest& nest, const RowStationaryTiling& tiling, const RowStationaryStep& step,
                         bool filters_in_rf) {
  const StepInput input = step_input(nest, step);
  // Every count is per group, times the groups mapped side by side.
  const u64 g = as_count(step.groups.size());
  const u64 n = as_count(step.images.size()), m = as_count(step.filters.size()), c = as_count(step.channels.size());
  const u64 e = as_count(step.ofmap_rows.size()), r = as_count(step.filter_rows.size()),
            s = as_count(step.filter_cols.size());
  const u64 f = as_count(nest.ofmap_w);
  const u64 input_cols = as_count(input.cols.size());

  StepTraffic t;
  t.macs = step.operations(nest.ofmap_w);
  if (nest.kind == LoopNestKind::kConv) {  // MACs on padding read zeros and are gated, like zero ifmap values
    t.valid_macs =
        g * n * m * c *
        valid_taps(step.ofmap_rows, step.filter_rows, nest.stride_h, nest.dilation_h, nest.pad_top, nest.input_h) *
        valid_taps({0, nest.ofmap_w}, step.filter_cols, nest.stride_w, nest.dilation_w, nest.pad_left, nest.input_w);
  } else {
    t.valid_macs = t.macs;  // pooling compares every value
  }
  const u64 filter_words = nest.kind == LoopNestKind::kConv ? g * m * c * r * s : 0;
  const u64 psum_words = g * n * m * e * f;

  // Filters stay in the PEs' RFs while the filter tile is unchanged; ifmaps are streamed every step.
  t.filter_bus_words = filters_in_rf ? 0 : filter_words;
  t.ifmap_bus_words = g * n * c * as_count(input.rows.size()) * input_cols;
  const u64 psum_reads = step.first_accumulation ? 0 : psum_words;
  t.psum_bus_words = psum_reads + psum_words;  // partial sums in, results out
  t.psum_glb_reads = psum_reads;
  t.psum_glb_writes = psum_words;
  t.glb_writes = psum_words;
  t.glb_reads = t.filter_bus_words + t.ifmap_bus_words + psum_reads;

  const std::int64_t channel_sets_used =
      std::min(tiling.channel_sets, ceil_div(step.channels.size(), tiling.channels_per_pe));
  const std::int64_t filter_sets_used =
      std::min(tiling.filter_sets, ceil_div(step.filters.size(), tiling.filters_per_pe));
  const u64 column_height = r * as_count(channel_sets_used);
  t.pe_hop_words = psum_words * (column_height - 1);
  t.pe_hop_shares[Tensor::kOutputs] = t.pe_hop_words;  // psums ripple up the PE columns
  t.active_pes = g * column_height * as_count(filter_sets_used) * e;

  // RF: every MAC reads its ifmap operand (the rest follows in set_nonzero_macs). Filling: each filter word
  // lands in the e PEs of its row; each PE receives its ifmap row segment.
  const u64 filter_rf_writes = t.filter_bus_words * e;
  const u64 ifmap_rf_writes = g * n * c * r * e * input_cols * as_count(filter_sets_used);
  t.rf.ifmap_reads = t.macs;
  t.rf.filter_writes = filter_rf_writes;
  t.rf.ifmap_writes = ifmap_rf_writes;

  const u64 channels_per_pe = as_count(std::min(tiling.channels_per_pe, step.channels.size()));
  const u64 filters_per_pe = as_count(std::min(tiling.filters_per_pe, step.filters.size()));
  t.compute_cycles = n * channels_per_pe * filters_per_pe * f * s;
  t.accumulation_latency_cycles = column_height - 1;

  t.ifmap_stream = ifmap_stream(nest, tiling, step);
  return t;
}

IfmapStream ifmap_stream(const LoopNest& nest, const RowStationaryTiling& tiling, const RowStationaryStep& step) {
  const StepInput input = step_input(nest, step);
  IfmapStream stream;
  stream.words_per_column = as_count(step.groups.size() * step.channels.size() * input.rows.size());
  stream.columns_per_image = as_count(input.cols.size());
  stream.window_columns = as_count((step.filter_cols.size() - 1) * nest.dilation_w + 1);
  stream.columns_per_step = as_count(nest.stride_w);
  stream.steps_per_image = as_count(nest.ofmap_w);
  stream.images = as_count(step.images.size());
  stream.channels_per_pe = as_count(std::min(tiling.channels_per_pe, step.channels.size()));
  return stream;
}

void set_nonzero_macs(StepTraffic& traffic, std::uint64_t nonzero_macs) {
  // A computed MAC reads its filter operand and its psum, and writes the psum back; a gated one does not.
  traffic.rf.filter_reads = traffic.rf.psum_reads = traffic.rf.psum_writes = nonzero_macs;
  traffic.nonzero_macs = nonzero_macs;
}

void add_glb_fetch(StepTraffic& t, const GlbFetch& fetch) {
  t.filter_dram_words += fetch.filter_dram_words;
  t.ifmap_dram_words += fetch.ifmap_dram_words;
  t.ifmap_dram_stored_words += fetch.ifmap_dram_stored_words;
  t.psum_spill_read_words += fetch.psum_spill_read_words;
  t.psum_spill_write_words += fetch.psum_spill_write_words;
  t.ofmap_dram_words += fetch.ofmap_dram_words;
  t.glb_writes += fetch.filter_dram_words + fetch.ifmap_dram_words + fetch.psum_spill_read_words;
  t.glb_reads += fetch.ofmap_dram_words + fetch.psum_spill_write_words;
}

}  // namespace ergon
