#include "arch/pe_array/impl/systolic_cycle_array.hpp"

#include <algorithm>

namespace ergon {
namespace {

std::int32_t mac(std::int32_t accumulator, std::int32_t a, std::int32_t b) {  // wraps like a 32-bit register
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(accumulator) +
                                   static_cast<std::uint32_t>(a) * static_cast<std::uint32_t>(b));
}

}  // namespace

SystolicCycleArray::SystolicCycleArray(sc_core::sc_module_name name, INoc& noc, IGlobalBuffer& glb, IPeArray& counters,
                                       const ClockDomain& clock)
    : ICycleArray(name), noc_(noc), glb_(glb), counters_(counters), clock_(clock) {
  SC_HAS_PROCESS(SystolicCycleArray);
  SC_METHOD(step);
  sensitive << start_event_;
  dont_initialize();
}

void SystolicCycleArray::start(const LayerPlan& plan, const LayerStep& step, LayerTensors& tensors,
                               const ActivitySink& activity, std::size_t layer_index, std::uint64_t dram_bytes) {
  const SystolicSchedule& schedule = dynamic_cast<const SystolicPlan&>(plan).schedule();
  const StepTraffic& traffic = step.traffic;
  activity_ = activity ? &activity : nullptr;
  layer_index_ = layer_index;
  dram_bytes_ = dram_bytes;
  start_cycle_ = clock_.cycle_at(sc_core::sc_time_stamp());
  schedule_ = &schedule;
  fold_ = dynamic_cast<const SystolicStepDetail&>(*step.detail).fold;
  glb_read_shares_ = glb_read_shares(traffic);
  glb_write_shares_ = glb_write_shares(traffic);
  tensors_ = &tensors;
  rows_ = schedule.array_rows();
  cols_ = schedule.array_cols();
  used_rows_ = fold_.rows.size();
  used_cols_ = fold_.cols.size();
  temporal_ = fold_.stream.size();
  stream_begin_ = fold_.stream.begin;
  const bool stationary = schedule.dataflow() != SystolicDataflow::kOutputStationary;
  preload_left_ = stationary ? rows_ : 0;
  stream_length_ = temporal_ + rows_ + cols_ - 2;  // the wavefront crosses the physical array
  cycle_ = 0;
  const auto pes = static_cast<std::size_t>(rows_ * cols_);
  a_.assign(pes, 0), b_.assign(pes, 0), acc_.assign(pes, 0), stationary_.assign(pes, 0);
  a_valid_.assign(pes, 0), b_valid_.assign(pes, 0);
  measured_ = MeasuredStep{};
  measured_.active_pes = static_cast<std::uint64_t>(used_rows_ * used_cols_);
  // The buffers also take the fold's DRAM deposits and give out its completed outputs and spilled psums.
  glb_writes_left_ = traffic.deposited_words();
  glb_reads_left_ = traffic.ofmap_dram_words + traffic.psum_spill_write_words;
  measured_.glb_writes = glb_writes_left_;
  measured_.glb_reads = glb_reads_left_;
  measured_.ofmap_words = traffic.ofmap_dram_words;
  start_event_.notify(sc_core::SC_ZERO_TIME);
}

std::int32_t SystolicCycleArray::operand_a(std::int64_t pixel, std::int64_t k) const {
  const LoopNest& n = schedule_->nest();
  const std::int64_t per_image = n.ofmap_h * n.ofmap_w;
  const std::int64_t image = pixel / per_image, e = pixel % per_image / n.ofmap_w, f = pixel % n.ofmap_w;
  const std::int64_t r = k / (n.filter_w * n.channels), s = k / n.channels % n.filter_w, c = k % n.channels;
  const std::int64_t y = e * n.stride_h + r * n.dilation_h - n.pad_top;
  const std::int64_t x = f * n.stride_w + s * n.dilation_w - n.pad_left;
  if (y < 0 || y >= n.input_h || x < 0 || x >= n.input_w) return 0;
  return tensors_->ifmap[ifmap_index(n, image, fold_.group, c, y, x)];
}

std::int32_t SystolicCycleArray::operand_b(std::int64_t k, std::int64_t filter) const {
  const LoopNest& n = schedule_->nest();
  const std::int64_t r = k / (n.filter_w * n.channels), s = k / n.channels % n.filter_w, c = k % n.channels;
  return tensors_->weights[weight_index(n, fold_.group, filter, c, r, s)];
}

void SystolicCycleArray::write_output(std::int64_t pixel, std::int64_t filter, std::int32_t value, bool accumulate) {
  const LoopNest& n = schedule_->nest();
  const std::int64_t per_image = n.ofmap_h * n.ofmap_w;
  std::int32_t& out = tensors_->ofmap[ofmap_index(n, pixel / per_image, fold_.group, filter,
                                                  pixel % per_image / n.ofmap_w, pixel % n.ofmap_w)];
  out = accumulate ? combine(LoopNestKind::kConv, out, value) : value;
  ++measured_.psum_bus_words;  // an ofmap buffer write
}

void SystolicCycleArray::step() {
  ++measured_.cycles;
  if (preload_left_ > 0) {
    preload_cycle();
    ++measured_.array_busy_cycles;
  } else if (cycle_ < stream_length_) {
    stream_cycle();
    ++cycle_;
    ++measured_.array_busy_cycles;
  }
  const std::uint64_t reads = std::min(glb_reads_left_, glb_.read_words_per_cycle());
  const std::uint64_t writes = std::min(glb_writes_left_, glb_.write_words_per_cycle());
  glb_reads_left_ -= reads, glb_writes_left_ -= writes;
  measured_.glb_read_port_words += reads;
  measured_.glb_write_port_words += writes;
  if (preload_left_ == 0 && cycle_ >= stream_length_ && glb_reads_left_ == 0 && glb_writes_left_ == 0) {
    finish_fold();
    done_event_.notify(clock_.period());
    return;
  }
  next_trigger(clock_.period());
}

void SystolicCycleArray::finish_fold() {
  const MeasuredStep& m = measured_;
  measured_.pe_hop_words = 2 * m.macs;  // two operands hop to a neighbour per MAC
  measured_.nonzero_macs = m.macs;      // no zero gating
  // Operands leave their buffers onto the array's edges and results enter the ofmap buffer.
  glb_.record(m.glb_reads + m.filter_bus_words + m.ifmap_bus_words, m.glb_writes + m.psum_bus_words, glb_read_shares_,
              glb_write_shares_);
  noc_.record(m.filter_bus_words, m.ifmap_bus_words, m.psum_bus_words, m.pe_hop_words,
              systolic_hop_shares(schedule_->dataflow(), m.macs));
  counters_.record(m.macs, m.nonzero_macs, m.rf);
  counters_.add_busy_cycles(m.array_busy_cycles);
  glb_.occupy_ports(glb_.read_port_cycles(m.glb_read_port_words), glb_.write_port_cycles(m.glb_write_port_words));
  if (activity_ == nullptr) return;
  ActivityInterval fold;  // one interval for the whole fold
  fold.layer_index = layer_index_;
  fold.start_cycle = start_cycle_;
  fold.end_cycle = start_cycle_ + m.cycles;
  fold.active_pes = m.active_pes;
  fold.macs = m.nonzero_macs;
  fold.noc_transfers = m.filter_bus_words + m.ifmap_bus_words + m.psum_bus_words + m.pe_hop_words;
  fold.glb_accesses = m.glb_reads + m.glb_writes + m.filter_bus_words + m.ifmap_bus_words + m.psum_bus_words;
  fold.dram_bytes = dram_bytes_;
  (*activity_)(fold);
}

// Weight/input stationary: the stationary block shifts down one row per cycle; after `rows` cycles PE (i, j)
// holds its value.
void SystolicCycleArray::preload_cycle() {
  const std::int64_t entering_row = rows_ - preload_left_;  // the row that reaches its place last is row 0
  for (std::int64_t i = rows_ - 1; i > 0; --i) {
    for (std::int64_t j = 0; j < cols_; ++j) stationary_[i * cols_ + j] = stationary_[(i - 1) * cols_ + j];
  }
  const std::int64_t row = rows_ - 1 - entering_row;  // the stationary row injected this cycle
  for (std::int64_t j = 0; j < cols_; ++j) {
    std::int32_t value = 0;
    if (row < used_rows_ && j < used_cols_) {
      const std::int64_t k = fold_.rows.begin + row;
      value = schedule_->dataflow() == SystolicDataflow::kWeightStationary ? operand_b(k, fold_.cols.begin + j)
                                                                           : operand_a(fold_.cols.begin + j, k);
      schedule_->dataflow() == SystolicDataflow::kWeightStationary ? ++measured_.filter_bus_words
                                                                   : ++measured_.ifmap_bus_words;
    }
    stationary_[j] = value;
  }
  --preload_left_;
}

void SystolicCycleArray::stream_cycle() {
  if (schedule_->dataflow() == SystolicDataflow::kOutputStationary) {
    stream_output_stationary();
  } else {
    stream_through_stationary();
  }
}

// Output stationary: ifmap rows enter from the left, filter columns from the top, both skewed by one cycle
// per row/column; PE (i, j) accumulates output (pixel i, filter j).
void SystolicCycleArray::stream_output_stationary() {
  for (std::int64_t i = 0; i < rows_; ++i) {
    for (std::int64_t j = cols_ - 1; j > 0; --j) {
      a_[i * cols_ + j] = a_[i * cols_ + j - 1], a_valid_[i * cols_ + j] = a_valid_[i * cols_ + j - 1];
    }
    const std::int64_t k = cycle_ - i;
    const bool valid = i < used_rows_ && k >= 0 && k < temporal_;
    a_valid_[i * cols_] = valid;
    a_[i * cols_] = valid ? operand_a(fold_.rows.begin + i, stream_begin_ + k) : 0;
    measured_.ifmap_bus_words += valid ? 1 : 0;
  }
  for (std::int64_t i = rows_ - 1; i > 0; --i) {
    for (std::int64_t j = 0; j < cols_; ++j) {
      b_[i * cols_ + j] = b_[(i - 1) * cols_ + j], b_valid_[i * cols_ + j] = b_valid_[(i - 1) * cols_ + j];
    }
  }
  for (std::int64_t j = 0; j < cols_; ++j) {
    const std::int64_t k = cycle_ - j;
    const bool valid = j < used_cols_ && k >= 0 && k < temporal_;
    b_valid_[j] = valid;
    b_[j] = valid ? operand_b(stream_begin_ + k, fold_.cols.begin + j) : 0;
    measured_.filter_bus_words += valid ? 1 : 0;
  }
  for (std::size_t pe = 0; pe < acc_.size(); ++pe) {
    if (a_valid_[pe] && b_valid_[pe]) {
      acc_[pe] = mac(acc_[pe], a_[pe], b_[pe]);
      ++measured_.macs;
    }
  }
  if (cycle_ + 1 == stream_length_) {  // the last operands have passed the far corner: results out
    for (std::int64_t i = 0; i < used_rows_; ++i) {
      for (std::int64_t j = 0; j < used_cols_; ++j) {
        write_output(fold_.rows.begin + i, fold_.cols.begin + j, acc_[i * cols_ + j], false);
      }
    }
  }
}

// Weight/input stationary: the streamed operand (ifmap for WS, filters for IS) enters row i from the left at
// cycle t + i and moves right; psums move down and leave the bottom row as outputs (accumulated over row
// folds, which split the window).
void SystolicCycleArray::stream_through_stationary() {
  const bool weights_stationary = schedule_->dataflow() == SystolicDataflow::kWeightStationary;
  for (std::int64_t i = 0; i < rows_; ++i) {
    for (std::int64_t j = cols_ - 1; j > 0; --j) {
      a_[i * cols_ + j] = a_[i * cols_ + j - 1], a_valid_[i * cols_ + j] = a_valid_[i * cols_ + j - 1];
    }
    const std::int64_t t = cycle_ - i;
    const bool valid = i < used_rows_ && t >= 0 && t < temporal_;
    const std::int64_t k = fold_.rows.begin + i;
    a_valid_[i * cols_] = valid;
    a_[i * cols_] = !valid ? 0 : weights_stationary ? operand_a(stream_begin_ + t, k) : operand_b(k, stream_begin_ + t);
    if (valid) weights_stationary ? ++measured_.ifmap_bus_words : ++measured_.filter_bus_words;
  }
  // Psums: bottom to top, so each row adds to what the row above computed in the previous cycle.
  for (std::int64_t i = rows_ - 1; i >= 0; --i) {
    for (std::int64_t j = 0; j < cols_; ++j) {
      const std::size_t pe = static_cast<std::size_t>(i * cols_ + j);
      const std::int32_t above = i == 0 ? 0 : acc_[pe - static_cast<std::size_t>(cols_)];
      const bool above_valid = i == 0 || b_valid_[pe - static_cast<std::size_t>(cols_)];
      const bool here = a_valid_[pe] && j < used_cols_;
      acc_[pe] = here ? mac(above, a_[pe], stationary_[pe]) : above;
      b_valid_[pe] = i == 0 ? a_valid_[pe] : above_valid;  // a psum is travelling through this PE
      measured_.macs += here ? 1 : 0;
    }
  }
  // Outputs leave the bottom row: the psum of step t in column j arrives at cycle t + (rows - 1) + j.
  for (std::int64_t j = 0; j < used_cols_; ++j) {
    const std::int64_t t = cycle_ - (rows_ - 1) - j;
    if (t < 0 || t >= temporal_) continue;
    const std::int32_t value = acc_[static_cast<std::size_t>((rows_ - 1) * cols_ + j)];
    const std::int64_t pixel = weights_stationary ? stream_begin_ + t : fold_.cols.begin + j;
    const std::int64_t filter = weights_stationary ? fold_.cols.begin + j : stream_begin_ + t;
    write_output(pixel, filter, value, fold_.rows.begin > 0);
  }
}

}  // namespace ergon
