#include "arch/pe_array/impl/row_stationary_cycle_array.hpp"

#include <algorithm>
#include <cmath>

#include "arch/clock.hpp"
#include "dataflows/row_stationary/step_timing.hpp"
#include "dataflows/row_stationary/step_traffic.hpp"

namespace ergon {
namespace {

std::uint64_t take(std::uint64_t& left, std::uint64_t budget) {
  const std::uint64_t taken = std::min(left, budget);
  left -= taken;
  return taken;
}

}  // namespace

RowStationaryCycleArray::RowStationaryCycleArray(sc_core::sc_module_name name, const PeArrayConfig& config, INoc& noc,
                                                 IGlobalBuffer& glb, IPeArray& counters, const ClockDomain& clock)
    : ICycleArray(name),
      filter_bus_words_(noc.filter_words_per_cycle()),
      ifmap_bus_words_(noc.ifmap_words_per_cycle()),
      psum_read_bus_words_(noc.psum_read_words_per_cycle()),
      psum_write_bus_words_(noc.psum_write_words_per_cycle()),
      glb_read_words_per_cycle_(glb.read_words_per_cycle()),
      glb_write_words_per_cycle_(glb.write_words_per_cycle()),
      ifmap_rf_words_(config.rf.ifmap_entries),
      filter_rf_double_buffered_(config.rf.filter_double_buffered),
      noc_(noc),
      glb_(glb),
      counters_(counters),
      clock_(clock) {
  SC_HAS_PROCESS(RowStationaryCycleArray);
  SC_METHOD(step);
  sensitive << start_event_;
  dont_initialize();
}

std::size_t RowStationaryCycleArray::pe_index(std::int64_t group, std::int64_t filter_set, std::int64_t channel_set,
                                              std::int64_t row, std::int64_t col) const {
  // Fixed by the tiling, not the step: edge steps use fewer PEs, and resident filters must stay put.
  const std::int64_t set = (group * tiling_.filter_sets + filter_set) * tiling_.channel_sets + channel_set;
  return static_cast<std::size_t>((set * tiling_.filter_rows + row) * tiling_.ofmap_rows + col);
}

void RowStationaryCycleArray::start(const LayerPlan& plan, const LayerStep& step, LayerTensors& tensors,
                                    const ActivitySink& activity, std::size_t layer_index, std::uint64_t dram_bytes) {
  const auto& schedule = dynamic_cast<const RowStationaryPlan&>(plan).schedule();
  const auto& detail = dynamic_cast<const RowStationaryStepDetail&>(*step.detail);
  activity_ = activity ? &activity : nullptr;
  layer_index_ = layer_index;
  dram_bytes_ = dram_bytes;
  run_cycles_ = 0;
  nest_ = schedule.nest();
  tiling_ = schedule.tiling();
  step_ = detail.step;
  staged_ = detail.staged;
  spilled_psum_words_ = step.traffic.psum_spill_write_words;
  glb_read_shares_ = glb_read_shares(step.traffic);
  glb_write_shares_ = glb_write_shares(step.traffic);
  tensors_ = &tensors;
  prepare_step();
  phase_ = Phase::kFill;
  start_event_.notify(sc_core::SC_ZERO_TIME);
}

void RowStationaryCycleArray::prepare_step() {
  n_ = step_.images.size();
  m_ = step_.filters.size();
  c_ = step_.channels.size();
  g_ = step_.groups.size();
  e_ = step_.ofmap_rows.size();
  r_ = step_.filter_rows.size();
  s_ = step_.filter_cols.size();
  f_ = nest_.ofmap_w;
  input_rows_ = (e_ - 1) * nest_.stride_h + (r_ - 1) * nest_.dilation_h + 1;
  input_cols_ = (f_ - 1) * nest_.stride_w + (s_ - 1) * nest_.dilation_w + 1;
  const std::int64_t q = tiling_.channels_per_pe, p = tiling_.filters_per_pe;
  channel_sets_used_ = std::min(tiling_.channel_sets, (c_ + q - 1) / q);
  filter_sets_used_ = std::min(tiling_.filter_sets, (m_ + p - 1) / p);

  // Register files sized for the layer's largest tile, so filters can stay across steps.
  const std::size_t pes = static_cast<std::size_t>(tiling_.group_sets * tiling_.filter_sets * tiling_.channel_sets *
                                                   tiling_.filter_rows * tiling_.ofmap_rows);
  const std::int64_t widest_input = (f_ - 1) * nest_.stride_w + (tiling_.filter_cols - 1) * nest_.dilation_w + 1;
  filter_stride_ = static_cast<std::size_t>(q * p * tiling_.filter_cols);
  ifmap_stride_ = static_cast<std::size_t>(tiling_.images * q * widest_input);
  psum_stride_ = static_cast<std::size_t>(tiling_.images * f_ * p);
  filter_rf_.resize(pes * filter_stride_);
  ifmap_rf_.resize(pes * ifmap_stride_);
  psum_rf_.assign(pes * psum_stride_, accumulator_identity(nest_.kind));
  if (tensors_->psums.size() != tensors_->ofmap.size()) tensors_->psums.assign(tensors_->ofmap.size(), 0);

  // Which PEs (filter row, ofmap row) read each input row of the tile: the diagonals of row stationary.
  ifmap_row_receivers_.assign(static_cast<std::size_t>(input_rows_), {});
  for (std::int64_t row = 0; row < r_; ++row) {
    for (std::int64_t col = 0; col < e_; ++col) {
      ifmap_row_receivers_[static_cast<std::size_t>(col * nest_.stride_h + row * nest_.dilation_h)].emplace_back(row,
                                                                                                                 col);
    }
  }
  measured_ = MeasuredStep{};
  filter_cursor_ = ifmap_cursor_ = 0;
  const std::uint64_t filter_words = staged_.filter_tile ? staged_.filter_tile->size() : 0;
  // A double-buffered filter RF received this step's filters while the previous step computed: the values
  // are in place now, and the bus carries them (counted) alongside this step's compute.
  streamed_filter_words_left_ = filter_rf_double_buffered_ ? filter_words : 0;
  if (filter_rf_double_buffered_) store_filters(filter_words);
  filter_words_left_ = filter_words - streamed_filter_words_left_;
  stream_ = ifmap_stream(nest_, tiling_, step_);
  ifmap_words_ = staged_.ifmap_tile->size();
  rf_columns_ = stream_.window_columns + ifmap_lookahead_columns(stream_, ifmap_rf_words_);
  ifmap_words_left_ = std::min(ifmap_words_, stream_.window_columns * stream_.words_per_column);
  glb_writes_left_ = staged_.deposited_words;
}

void RowStationaryCycleArray::step() {
  ++measured_.cycles;
  const MeasuredStep before = measured_;
  active_pes_ = 0;
  if (phase_ == Phase::kFill && fill_cycle()) {
    start_compute();  // from the next cycle
  } else if (phase_ == Phase::kCompute && compute_cycle()) {
    finish_step();
    record_in_modules();
    record_cycle(before, active_pes_, true);
    phase_ = Phase::kIdle;
    done_event_.notify(clock_.period());
    return;
  }
  record_cycle(before, active_pes_, false);
  next_trigger(clock_.period());
}

void RowStationaryCycleArray::start_compute() {
  // Every set of PEs begins its MAC sequence.
  sets_.clear();
  const std::int64_t q = tiling_.channels_per_pe, p = tiling_.filters_per_pe;
  for (std::int64_t group = 0; group < g_; ++group) {
    for (std::int64_t fs = 0; fs < filter_sets_used_; ++fs) {
      for (std::int64_t cs = 0; cs < channel_sets_used_; ++cs) {
        SetState set;
        set.group = group;
        set.filter_set = fs;
        set.channel_set = cs;
        set.channels = std::min(q, c_ - cs * q);
        set.filters = std::min(p, m_ - fs * p);
        set.remaining = static_cast<std::uint64_t>(n_ * f_ * set.filters * set.channels * s_);
        sets_.push_back(set);
      }
    }
  }
  measured_.active_pes = static_cast<std::uint64_t>(g_ * r_ * channel_sets_used_ * filter_sets_used_ * e_);
  ripple_cycles_left_ = static_cast<std::uint64_t>(r_ * channel_sets_used_ - 1);
  const std::uint64_t psum_words = static_cast<std::uint64_t>(g_ * n_ * m_ * e_ * f_);
  const std::uint64_t psum_reads = step_.first_accumulation ? 0 : psum_words;
  psum_read_bus_left_ = psum_reads;
  psum_write_bus_left_ = psum_words;
  glb_reads_left_ = psum_reads + (step_.last_accumulation ? psum_words : 0);  // finished outputs leave for DRAM
  glb_writes_left_ += psum_words;
  phase_ = Phase::kCompute;
}

void RowStationaryCycleArray::record_cycle(const MeasuredStep& before, std::uint64_t active_pes, bool last) {
  if (activity_ == nullptr) return;
  ActivityInterval cycle;
  cycle.layer_index = layer_index_;
  cycle.active_pes = active_pes;
  cycle.macs = measured_.nonzero_macs - before.nonzero_macs;
  cycle.rf_accesses = measured_.rf.total() - before.rf.total();
  cycle.noc_transfers =
      (measured_.filter_bus_words + measured_.ifmap_bus_words + measured_.psum_bus_words + measured_.pe_hop_words) -
      (before.filter_bus_words + before.ifmap_bus_words + before.psum_bus_words + before.pe_hop_words);
  cycle.glb_accesses = (measured_.glb_reads + measured_.glb_writes) - (before.glb_reads + before.glb_writes);
  cycle.dram_bytes = last ? dram_bytes_ : 0;
  const bool same = run_cycles_ > 0 && cycle.active_pes == run_.active_pes && cycle.macs == run_.macs &&
                    cycle.rf_accesses == run_.rf_accesses && cycle.noc_transfers == run_.noc_transfers &&
                    cycle.glb_accesses == run_.glb_accesses && cycle.dram_bytes == run_.dram_bytes;
  if (same) {
    ++run_cycles_;
  } else {
    flush_activity();
    run_ = cycle;
    run_.start_cycle = clock_.cycle_at(sc_core::sc_time_stamp());
    run_cycles_ = 1;
  }
  if (last) flush_activity();
}

void RowStationaryCycleArray::flush_activity() {
  if (run_cycles_ == 0) return;
  ActivityInterval interval = run_;  // per-cycle values times the run's length
  interval.end_cycle = run_.start_cycle + run_cycles_;
  interval.macs *= run_cycles_;
  interval.rf_accesses *= run_cycles_;
  interval.noc_transfers *= run_cycles_;
  interval.glb_accesses *= run_cycles_;
  interval.dram_bytes *= run_cycles_;
  (*activity_)(interval);
  run_cycles_ = 0;
}

bool RowStationaryCycleArray::fill_cycle() {
  // The GLB's read ports serve both buses. Each cycle sends first what cannot wait if both streams are
  // to finish by the earliest possible cycle, then fills the ports, the longer stream first.
  const std::uint64_t filter_bus = filter_bus_words_;
  const std::uint64_t ifmap_bus = ifmap_bus_words_;
  const auto cycles_for = [](std::uint64_t words, std::uint64_t per_cycle) {
    return (words + per_cycle - 1) / per_cycle;
  };
  const std::uint64_t finish =
      std::max({cycles_for(filter_words_left_, filter_bus), cycles_for(ifmap_words_left_, ifmap_bus),
                cycles_for(filter_words_left_ + ifmap_words_left_, glb_read_words_per_cycle_)});
  const auto due_now = [finish](std::uint64_t words, std::uint64_t per_cycle) {
    const std::uint64_t later = per_cycle * (finish - 1);
    return words > later ? words - later : 0;
  };
  std::uint64_t filter_grant = due_now(filter_words_left_, filter_bus);
  std::uint64_t ifmap_grant = due_now(ifmap_words_left_, ifmap_bus);
  std::uint64_t glb_budget = glb_read_words_per_cycle_ - filter_grant - ifmap_grant;
  const auto top_up = [&glb_budget](std::uint64_t& grant, std::uint64_t left, std::uint64_t bus) {
    const std::uint64_t extra = std::min({bus - grant, left - grant, glb_budget});
    grant += extra;
    glb_budget -= extra;
  };
  if (cycles_for(ifmap_words_left_, ifmap_bus) > cycles_for(filter_words_left_, filter_bus)) {
    top_up(ifmap_grant, ifmap_words_left_, ifmap_bus);
    top_up(filter_grant, filter_words_left_, filter_bus);
  } else {
    top_up(filter_grant, filter_words_left_, filter_bus);
    top_up(ifmap_grant, ifmap_words_left_, ifmap_bus);
  }
  store_filters(take(filter_words_left_, filter_grant));
  store_ifmaps(take(ifmap_words_left_, ifmap_grant));
  measured_.glb_read_port_words += filter_grant + ifmap_grant;
  return filter_words_left_ == 0 && ifmap_words_left_ == 0;
}

// Filters: each word is multicast to the e PEs of its (filter set, channel set, filter row).
void RowStationaryCycleArray::store_filters(std::uint64_t words) {
  const std::int64_t q = tiling_.channels_per_pe, p = tiling_.filters_per_pe;
  for (std::uint64_t w = 0; w < words; ++w, ++filter_cursor_) {
    const auto word = static_cast<std::int64_t>(filter_cursor_);
    const std::int64_t tap = word % s_, row = word / s_ % r_, channel = word / (s_ * r_) % c_,
                       filter = word / (s_ * r_ * c_) % m_, group = word / (s_ * r_ * c_ * m_);
    const std::int16_t value = (*staged_.filter_tile)[filter_cursor_];
    const std::size_t slot = static_cast<std::size_t>(((filter % p) * q + channel % q) * s_ + tap);
    for (std::int64_t col = 0; col < e_; ++col) {
      filter_rf_[pe_index(group, filter / p, channel / q, row, col) * filter_stride_ + slot] = value;
    }
  }
  if (filter_rf_double_buffered_) return;  // counted as the bus carries them, in compute_cycle()
  measured_.rf.filter_writes += words * static_cast<std::uint64_t>(e_);
  measured_.filter_bus_words += words;
  measured_.glb_reads += words;
}

// Ifmaps stream column by column (every group, channel and row at one x, image after image); each word
// goes to every PE on its diagonal, in every filter set.
void RowStationaryCycleArray::store_ifmaps(std::uint64_t words) {
  const std::int64_t q = tiling_.channels_per_pe;
  const auto column_words = static_cast<std::int64_t>(stream_.words_per_column);
  for (std::uint64_t w = 0; w < words; ++w, ++ifmap_cursor_) {
    const auto word = static_cast<std::int64_t>(ifmap_cursor_);
    const std::int64_t column = word / column_words, within = word % column_words;
    const std::int64_t image = column / input_cols_, x = column % input_cols_;
    const std::int64_t group = within / (c_ * input_rows_), channel = within / input_rows_ % c_,
                       y = within % input_rows_;
    const auto tile_index =
        static_cast<std::size_t>((((group * n_ + image) * c_ + channel) * input_rows_ + y) * input_cols_ + x);
    const std::int16_t value = (*staged_.ifmap_tile)[tile_index];
    const std::size_t slot = static_cast<std::size_t>((image * q + channel % q) * input_cols_ + x);
    for (const auto& [row, col] : ifmap_row_receivers_[static_cast<std::size_t>(y)]) {
      for (std::int64_t fs = 0; fs < filter_sets_used_; ++fs) {
        ifmap_rf_[pe_index(group, fs, channel / q, row, col) * ifmap_stride_ + slot] = value;
        ++measured_.rf.ifmap_writes;
      }
    }
  }
  measured_.ifmap_bus_words += words;
  measured_.glb_reads += words;
}

// The columns of a set's current output window (all its taps) have all arrived.
bool RowStationaryCycleArray::window_arrived(const SetState& set) const {
  const auto needed =
      static_cast<std::uint64_t>(set.image * input_cols_ + set.column * nest_.stride_w) + stream_.window_columns;
  return ifmap_cursor_ >= needed * stream_.words_per_column;
}

// How far the stream may go: an RF holds its window and the lookahead, counted from the first column the
// slowest set still needs.
std::uint64_t RowStationaryCycleArray::ifmap_stream_limit() const {
  std::uint64_t first_needed = ifmap_words_;
  for (const SetState& set : sets_) {
    if (set.remaining == 0) continue;
    const auto column = static_cast<std::uint64_t>(set.image * input_cols_ + set.column * nest_.stride_w);
    first_needed = std::min(first_needed, column * stream_.words_per_column);
  }
  if (first_needed == ifmap_words_) return ifmap_words_;
  return std::min(ifmap_words_, first_needed + rf_columns_ * stream_.words_per_column);
}

bool RowStationaryCycleArray::compute_cycle() {
  // MACs on the words that arrived in earlier cycles.
  bool macs_left = false;
  for (SetState& set : sets_) {
    if (set.remaining == 0 || !window_arrived(set)) {
      macs_left = macs_left || set.remaining > 0;
      continue;
    }
    run_set_cycle(set);
    active_pes_ += static_cast<std::uint64_t>(r_ * e_);
    macs_left = macs_left || set.remaining > 0;
  }
  // Once the MACs are done, the last psums ripple up the tallest column, one PE per cycle.
  const bool rippling = !macs_left && active_pes_ == 0 && ripple_cycles_left_ > 0;
  if (rippling) --ripple_cycles_left_;
  measured_.array_busy_cycles += active_pes_ > 0 || rippling ? 1 : 0;
  // The GLB's read ports serve the ifmap stream first (it paces the MACs), then filters, then psums.
  std::uint64_t glb_budget = glb_read_words_per_cycle_;
  const std::uint64_t limit = ifmap_stream_limit();
  const std::uint64_t ifmaps = std::min({ifmap_bus_words_, limit - std::min(limit, ifmap_cursor_), glb_budget});
  store_ifmaps(ifmaps);
  glb_budget -= ifmaps;
  const std::uint64_t filters = take(streamed_filter_words_left_, std::min(filter_bus_words_, glb_budget));
  glb_budget -= filters;
  measured_.filter_bus_words += filters;
  measured_.rf.filter_writes += filters * static_cast<std::uint64_t>(e_);
  const std::uint64_t other_reads = take(glb_reads_left_, glb_budget);
  measured_.glb_reads += filters + other_reads;
  const std::uint64_t psum_reads = take(psum_read_bus_left_, psum_read_bus_words_);
  const std::uint64_t psum_writes = take(psum_write_bus_left_, psum_write_bus_words_);
  measured_.psum_bus_words += psum_reads + psum_writes;
  const std::uint64_t glb_writes = take(glb_writes_left_, glb_write_words_per_cycle_);
  measured_.glb_writes += glb_writes;
  measured_.psum_read_bus_words += psum_reads;
  measured_.psum_write_bus_words += psum_writes;
  measured_.glb_read_port_words += ifmaps + filters + other_reads;
  measured_.glb_write_port_words += glb_writes;
  return !macs_left && ripple_cycles_left_ == 0 && ifmap_cursor_ == ifmap_words_ && streamed_filter_words_left_ == 0 &&
         psum_read_bus_left_ == 0 && psum_write_bus_left_ == 0 && glb_reads_left_ == 0 && glb_writes_left_ == 0;
}

void RowStationaryCycleArray::run_set_cycle(SetState& set) {
  const std::int64_t q = tiling_.channels_per_pe;
  const std::size_t ifmap_slot = static_cast<std::size_t>((set.image * q + set.channel) * input_cols_ +
                                                          set.column * nest_.stride_w + set.tap * nest_.dilation_w);
  const std::size_t filter_slot = static_cast<std::size_t>((set.filter * q + set.channel) * s_ + set.tap);
  const std::size_t psum_slot =
      static_cast<std::size_t>((set.image * f_ + set.column) * tiling_.filters_per_pe + set.filter);
  const bool gating = nest_.kind == LoopNestKind::kConv;
  for (std::int64_t row = 0; row < r_; ++row) {
    for (std::int64_t col = 0; col < e_; ++col) {
      const std::size_t pe = pe_index(set.group, set.filter_set, set.channel_set, row, col);
      const std::int16_t value = ifmap_rf_[pe * ifmap_stride_ + ifmap_slot];
      ++measured_.rf.ifmap_reads;  // the ifmap operand is always read
      if (gating && value == 0) continue;
      std::int32_t& psum = psum_rf_[pe * psum_stride_ + psum_slot];
      psum = accumulate(nest_.kind, psum, value, gating ? filter_rf_[pe * filter_stride_ + filter_slot] : 0);
      ++measured_.nonzero_macs;
      ++measured_.rf.filter_reads, ++measured_.rf.psum_reads, ++measured_.rf.psum_writes;
    }
  }
  const auto pes_in_set = static_cast<std::uint64_t>(r_ * e_);
  measured_.macs += pes_in_set;
  measured_.pe_busy_cycles += pes_in_set;
  --set.remaining;
  // Next operation: tap, then channel, filter, output column, image.
  if (++set.tap < s_) return;
  set.tap = 0;
  if (++set.channel < set.channels) return;
  set.channel = 0;
  // This output's psums are complete in the set: each PE steps its psum up, except the column's top PE.
  const bool top_set = set.channel_set == channel_sets_used_ - 1;
  measured_.pe_hop_words += static_cast<std::uint64_t>(e_ * (top_set ? r_ - 1 : r_));
  if (++set.filter < set.filters) return;
  set.filter = 0;
  if (++set.column < f_) return;
  set.column = 0;
  ++set.image;
}

void RowStationaryCycleArray::record_in_modules() {
  glb_.record(measured_.glb_reads + spilled_psum_words_, measured_.glb_writes, glb_read_shares_, glb_write_shares_);
  TensorCounts pe_hops;  // psums rippling up the columns
  pe_hops[Tensor::kOutputs] = measured_.pe_hop_words;
  noc_.record(measured_.filter_bus_words, measured_.ifmap_bus_words, measured_.psum_bus_words, measured_.pe_hop_words,
              pe_hops);
  counters_.record(measured_.macs, measured_.nonzero_macs, measured_.rf);
  counters_.add_busy_cycles(measured_.array_busy_cycles);
  NocBusy buses;
  buses.filter_bus_cycles = INoc::bus_cycles(measured_.filter_bus_words, filter_bus_words_);
  buses.ifmap_bus_cycles = INoc::bus_cycles(measured_.ifmap_bus_words, ifmap_bus_words_);
  buses.psum_read_bus_cycles = INoc::bus_cycles(measured_.psum_read_bus_words, psum_read_bus_words_);
  buses.psum_write_bus_cycles = INoc::bus_cycles(measured_.psum_write_bus_words, psum_write_bus_words_);
  noc_.occupy(buses);
  glb_.occupy_ports(glb_.read_port_cycles(measured_.glb_read_port_words),
                    glb_.write_port_cycles(measured_.glb_write_port_words));
}

void RowStationaryCycleArray::finish_step() {
  const std::int64_t p = tiling_.filters_per_pe;
  for (std::int64_t group = 0; group < g_; ++group) {
    for (std::int64_t fs = 0; fs < filter_sets_used_; ++fs) {
      const std::int64_t filters = std::min(p, m_ - fs * p);
      for (std::int64_t col = 0; col < e_; ++col) {
        for (std::int64_t image = 0; image < n_; ++image) {
          for (std::int64_t column = 0; column < f_; ++column) {
            for (std::int64_t j = 0; j < filters; ++j) finish_output(group, fs, col, image, column, j);
          }
        }
      }
    }
  }
}

// One output of the step: psums ripple up its PE column (every PE adds its own to what arrives from
// below), then join the GLB's partial sum; complete outputs go to DRAM.
void RowStationaryCycleArray::finish_output(std::int64_t group, std::int64_t filter_set, std::int64_t col,
                                            std::int64_t image, std::int64_t column, std::int64_t j) {
  const std::int64_t p = tiling_.filters_per_pe;
  const std::size_t slot = static_cast<std::size_t>((image * f_ + column) * p + j);
  std::int32_t sum = accumulator_identity(nest_.kind);
  for (std::int64_t cs = 0; cs < channel_sets_used_; ++cs) {
    for (std::int64_t row = 0; row < r_; ++row) {
      sum = combine(nest_.kind, sum, psum_rf_[pe_index(group, filter_set, cs, row, col) * psum_stride_ + slot]);
    }
  }
  const std::size_t index = ofmap_index(nest_, step_.images.begin + image, step_.groups.begin + group,
                                        step_.filters.begin + filter_set * p + j, step_.ofmap_rows.begin + col, column);
  std::int32_t& stored = tensors_->psums[index];  // in the GLB, or spilled to DRAM and read back
  if (!step_.first_accumulation) sum = combine(nest_.kind, stored, sum);
  stored = sum;
  if (step_.last_accumulation) {
    tensors_->ofmap[index] = sum;
    ++measured_.ofmap_words;
  }
}

}  // namespace ergon
