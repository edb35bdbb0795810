#include "dataflows/step_pipeline.hpp"

#include <algorithm>

namespace ergon {

StepDram step_dram(const StepTraffic& t, const DramEncoding& encoding) {
  const std::uint64_t stored = t.ifmap_dram_stored_words;
  StepDram dram;
  dram.evicted_bytes = encoding.psum_bytes(t.psum_spill_write_words);
  dram.read_bytes =
      encoding.weight_bytes(t.filter_dram_words) + encoding.psum_bytes(t.psum_spill_read_words) +
      (stored > 0 ? encoding.ifmap_bytes(stored, DramEncoding::expected(stored, encoding.ifmap_density)) : 0);
  dram.written_bytes = t.ofmap_dram_words > 0 ? encoding.ofmap_bytes(t.ofmap_dram_words) : 0;
  return dram;
}

double StepPipeline::transfer(double time, std::uint64_t bytes) {
  issue_writes_until(time);
  const double start = std::max(time, bus_free_at_);
  bus_free_at_ = start + static_cast<double>(bytes) / timing_.dram_bytes_per_cycle;
  return bus_free_at_ + timing_.dram_latency_cycles;
}

void StepPipeline::issue_writes_until(double time) {
  while (!writes_.empty() && writes_.front().issued_at <= time) {
    const Write write = writes_.front();
    writes_.pop_front();
    const double start = std::max(write.issued_at, bus_free_at_);
    bus_free_at_ = start + static_cast<double>(write.bytes) / timing_.dram_bytes_per_cycle;
    writes_landed_at_ = std::max(writes_landed_at_, bus_free_at_ + timing_.dram_latency_cycles);
  }
}

void StepPipeline::add(const StepDram& dram, double array_cycles) {
  const double prepared_from = first_ ? 0.0 : fetched_at_;  // the loader turns to this step
  if (dram.evicted_bytes > 0) {
    writes_landed_at_ = std::max(writes_landed_at_, transfer(prepared_from, dram.evicted_bytes));
  }
  double fetch_from = first_ ? prepared_from : std::max(prepared_from, started_at_);  // a buffer is free
  double arrived = fetch_from;
  if (dram.read_bytes > 0) {
    if (!timing_.double_buffered && !first_) fetch_from = std::max(fetch_from, ended_at_);
    arrived = transfer(fetch_from, dram.read_bytes);
  }
  fetched_at_ = arrived;
  started_at_ = first_ ? arrived : std::max(ended_at_, arrived);
  ended_at_ = started_at_ + array_cycles;
  if (dram.written_bytes > 0) writes_.push_back({ended_at_, dram.written_bytes});
  first_ = false;
}

double StepPipeline::cycles() {
  issue_writes_until(ended_at_);
  while (!writes_.empty()) issue_writes_until(writes_.front().issued_at);
  return std::max(ended_at_, writes_landed_at_);
}

}  // namespace ergon
