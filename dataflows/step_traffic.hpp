#pragma once
// What one step of a layer (a row-stationary step, a systolic fold, an element-wise chunk) moves and
// computes, in words and operations. The SystemC modules time their work from these counts; both
// fidelities must produce the same counts (the cycle-accurate arrays count them as they move values).
#include <cstdint>

#include "common/action_catalogue.hpp"

namespace ergon {

// How a step's ifmap words can stream into the PEs while they compute (row stationary): one ifmap column
// (every row and channel of the tile at one x position) after another, image by image. An output column
// needs `window_columns` columns; the next output column `columns_per_step` more. Each PE keeps `channels_per_pe`
// words of every column it holds. Empty (no columns): the whole ifmap tile must arrive before the compute.
struct IfmapStream {
  std::uint64_t words_per_column = 0;
  std::uint64_t columns_per_image = 0;
  std::uint64_t window_columns = 0;
  std::uint64_t columns_per_step = 0;
  std::uint64_t steps_per_image = 0;  // output columns
  std::uint64_t images = 0;
  std::uint64_t channels_per_pe = 1;
  bool empty() const { return words_per_column == 0; }
};

// Register-file accesses by operand: what the RF's energy actions count (rf.ifmap_read, ...).
struct RfAccesses {
  std::uint64_t ifmap_reads = 0;
  std::uint64_t ifmap_writes = 0;
  std::uint64_t filter_reads = 0;
  std::uint64_t filter_writes = 0;
  std::uint64_t psum_reads = 0;
  std::uint64_t psum_writes = 0;

  std::uint64_t total() const {
    return ifmap_reads + ifmap_writes + filter_reads + filter_writes + psum_reads + psum_writes;
  }
  RfAccesses& operator+=(const RfAccesses& o) {
    ifmap_reads += o.ifmap_reads, ifmap_writes += o.ifmap_writes, filter_reads += o.filter_reads;
    filter_writes += o.filter_writes, psum_reads += o.psum_reads, psum_writes += o.psum_writes;
    return *this;
  }
  RfAccesses operator-(const RfAccesses& o) const {
    return {ifmap_reads - o.ifmap_reads,     ifmap_writes - o.ifmap_writes, filter_reads - o.filter_reads,
            filter_writes - o.filter_writes, psum_reads - o.psum_reads,     psum_writes - o.psum_writes};
  }
  bool operator==(const RfAccesses& o) const {
    return ifmap_reads == o.ifmap_reads && ifmap_writes == o.ifmap_writes && filter_reads == o.filter_reads &&
           filter_writes == o.filter_writes && psum_reads == o.psum_reads && psum_writes == o.psum_writes;
  }
};

struct StepTraffic {
  std::uint64_t macs = 0;          // all MACs of the step, gated ones included
  std::uint64_t valid_macs = 0;    // MACs whose ifmap operand is not padding
  std::uint64_t nonzero_macs = 0;  // MACs whose ifmap operand is non-zero (the others are gated)
  // Words fetched from DRAM into the on-chip buffers (0 when the tile is still on chip).
  std::uint64_t filter_dram_words = 0;
  std::uint64_t ifmap_dram_words = 0;         // padding positions included (materialised on chip)
  std::uint64_t ifmap_dram_stored_words = 0;  // of which stored in DRAM (not padding)
  std::uint64_t psum_spill_read_words = 0;    // partial sums read back from DRAM
  std::uint64_t psum_spill_write_words = 0;   // partial sums evicted to DRAM before they were complete
  std::uint64_t ofmap_dram_words = 0;         // written back when the psums are complete
  // Global buffer (filter store included) accesses, in total and those of psums during the compute.
  std::uint64_t glb_writes = 0;
  std::uint64_t glb_reads = 0;
  std::uint64_t psum_glb_reads = 0;   // partial sums read back to accumulate (the psum read bus carries them)
  std::uint64_t psum_glb_writes = 0;  // psums (or results) written by the array (over the psum write bus)
  // Words crossing the NoC: filter and ifmap multicast from the GLB, psums to and from the GLB, and psum
  // hops between vertically neighbouring PEs.
  std::uint64_t filter_bus_words = 0;
  std::uint64_t ifmap_bus_words = 0;
  std::uint64_t psum_bus_words = 0;
  std::uint64_t pe_hop_words = 0;
  TensorCounts pe_hop_shares;  // the hops by tensor (row stationary: outputs; systolic: the two moving ones)
  RfAccesses rf;
  std::uint64_t active_pes = 0;
  std::uint64_t compute_cycles = 0;               // the busiest PE's MAC cycles, one MAC per cycle
  std::uint64_t accumulation_latency_cycles = 0;  // psums rippling up the tallest PE column
  std::uint64_t fill_cycles = 0;                  // systolic: shifting the stationary operand in before the stream
  bool skew_overlapped = false;  // systolic, pipelined folds: the wavefront's skew overlaps the next fold's stream
  IfmapStream ifmap_stream;

  // Words DRAM deposits into the on-chip buffers for this step.
  std::uint64_t deposited_words() const { return filter_dram_words + ifmap_dram_words + psum_spill_read_words; }
};

// The counts of the PE array's, the NoC's and the GLB's actions in a step, or in a cost model's totals
// named as a step's (row stationary's MappingCost); the DRAM's are bytes, coded per transfer (step_dram).
// A cost model prices them with on_chip_pj.
template <typename Traffic>
ActionCounts on_chip_counts(const Traffic& t) {
  ActionCounts c;
  using A = Action;
  c[A::kMacCompute] = t.nonzero_macs;
  c[A::kMacGated] = t.macs - t.nonzero_macs;
  c[A::kRfIfmapRead] = t.rf.ifmap_reads;
  c[A::kRfIfmapWrite] = t.rf.ifmap_writes;
  c[A::kRfFilterRead] = t.rf.filter_reads;
  c[A::kRfFilterWrite] = t.rf.filter_writes;
  c[A::kRfPsumRead] = t.rf.psum_reads;
  c[A::kRfPsumWrite] = t.rf.psum_writes;
  c[A::kNocFilterTransfer] = t.filter_bus_words;
  c[A::kNocIfmapTransfer] = t.ifmap_bus_words;
  c[A::kNocPsumTransfer] = t.psum_bus_words;
  c[A::kNocPeHop] = t.pe_hop_words;
  c[A::kGlbRead] = t.glb_reads;
  c[A::kGlbWrite] = t.glb_writes;
  return c;
}

// A step's GLB reads by tensor: operands onto the NoC, psums read back to accumulate, and what leaves for
// DRAM (finished outputs, spilled psums). Every producer's glb_reads is this sum (a test checks it).
inline TensorCounts glb_read_shares(const StepTraffic& t) {
  TensorCounts shares;
  shares[Tensor::kWeights] = t.filter_bus_words;
  shares[Tensor::kInputs] = t.ifmap_bus_words;
  shares[Tensor::kOutputs] = t.psum_glb_reads + t.ofmap_dram_words + t.psum_spill_write_words;
  return shares;
}

// A step's GLB writes by tensor: DRAM's deposits and the psums (or results) the array writes.
inline TensorCounts glb_write_shares(const StepTraffic& t) {
  TensorCounts shares;
  shares[Tensor::kWeights] = t.filter_dram_words;
  shares[Tensor::kInputs] = t.ifmap_dram_words;
  shares[Tensor::kOutputs] = t.psum_glb_writes + t.psum_spill_read_words;
  return shares;
}

}  // namespace ergon
