#pragma once
// Off-chip DRAM: a TLM-2.0 target. A burst is one blocking transport whose annotated delay says when
// its data has arrived (reads) or been absorbed (writes). Implementations: arch/dram/impl/.
#include <cstdint>
#include <systemc>
#include <tlm>

#include "common/busy_registry.hpp"
#include "common/counter_registry.hpp"

namespace ergon {

// DRAM energy by kind, from a bank-level model's commands and standby time.
struct DramEnergyByKind {
  double activate_pj = 0;  // activate and its precharge
  double read_pj = 0;      // read bursts
  double write_pj = 0;     // write bursts
  double refresh_pj = 0;
  double background_pj = 0;  // precharged standby plus the open banks' share
  double total_pj() const { return activate_pj + read_pj + write_pj + refresh_pj + background_pj; }
  DramEnergyByKind& operator+=(const DramEnergyByKind& other) {
    activate_pj += other.activate_pj;
    read_pj += other.read_pj;
    write_pj += other.write_pj;
    refresh_pj += other.refresh_pj;
    background_pj += other.background_pj;
    return *this;
  }
  DramEnergyByKind operator-(const DramEnergyByKind& before) const {
    return {activate_pj - before.activate_pj, read_pj - before.read_pj, write_pj - before.write_pj,
            refresh_pj - before.refresh_pj, background_pj - before.background_pj};
  }
};

// What a bank-level model adds (`dram.impl: banked`, docs/dram.md): row-buffer outcomes, refresh, and
// energy by kind from the datasheet currents.
struct DramBankStats {
  std::uint64_t row_hits = 0, row_misses = 0, row_conflicts = 0;  // miss: bank precharged; conflict: other row
  std::uint64_t refresh_cycles = 0;  // DRAM clock cycles of rank-time blocked by refresh (tRFC per refresh)
  DramEnergyByKind energy;
  DramBankStats operator-(const DramBankStats& before) const {
    return {row_hits - before.row_hits, row_misses - before.row_misses, row_conflicts - before.row_conflicts,
            refresh_cycles - before.refresh_cycles, energy - before.energy};
  }
  DramBankStats& operator+=(const DramBankStats& other) {
    row_hits += other.row_hits;
    row_misses += other.row_misses;
    row_conflicts += other.row_conflicts;
    refresh_cycles += other.refresh_cycles;
    energy += other.energy;
    return *this;
  }
};

struct DramCounters {
  std::uint64_t read_bytes = 0;
  std::uint64_t write_bytes = 0;
  TensorCounts read_shares;  // the bytes by tensor (from each burst's stream): they add up to read_bytes
  TensorCounts write_shares;
  std::uint64_t read_requests = 0;
  std::uint64_t write_requests = 0;
  std::uint64_t queue_full_waits = 0;  // requests that found the queue full
  std::uint64_t busy_ps = 0;           // time the data bus spent transferring (the busiest port's; per channel)
  bool has_bank_model = false;
  DramBankStats bank;  // zero for `simple`
};

// Which operand stream a burst carries, set by the loader on every payload as a TLM extension. A model
// that serves the streams on separate ports (`dram.impl: streams`) reads it; the others ignore the stream.
enum class DramStream { kFilters, kIfmaps, kPsums, kOfmaps };
struct DramStreamExtension : tlm::tlm_extension<DramStreamExtension> {
  DramStream stream = DramStream::kIfmaps;
  // Part of a layer's free first fill (`glb.first_fill: free`, SCALE-Sim's assumption): counted, but it
  // arrived before the layer started, so it takes no time and no bus slot. Only `simple` and `streams`
  // accept it (the config loader refuses a free fill with a bank-level model).
  bool before_layer = false;
  tlm::tlm_extension_base* clone() const override { return new DramStreamExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const DramStreamExtension&>(other);
  }
};

// The tensor a stream carries.
inline Tensor tensor_of(DramStream stream) {
  switch (stream) {
    case DramStream::kFilters: return Tensor::kWeights;
    case DramStream::kIfmaps: return Tensor::kInputs;
    case DramStream::kPsums:
    case DramStream::kOfmaps: break;
  }
  return Tensor::kOutputs;
}

// The payload's stream extension, or null.
inline const DramStreamExtension* stream_extension(const tlm::tlm_generic_payload& payload) {
  DramStreamExtension* extension = nullptr;
  payload.get_extension(extension);
  return extension;
}
inline bool arrived_before_layer(const tlm::tlm_generic_payload& payload) {
  const DramStreamExtension* extension = stream_extension(payload);
  return extension != nullptr && extension->before_layer;
}

// dram.read and dram.write in bytes; a bank-level model adds its row-buffer outcomes and refresh.
inline void register_counters(CounterRegistry& registry, const DramCounters& c) {
  registry.add(Action::kDramRead, c.read_bytes);
  registry.add(Action::kDramWrite, c.write_bytes);
  registry.add_tensor_shares(Action::kDramRead, c.read_shares);
  registry.add_tensor_shares(Action::kDramWrite, c.write_shares);
  if (!c.has_bank_model) return;
  registry.add({"dram.row_hit", "bursts", "dram_row_hits", "bursts to an open row", false}, c.bank.row_hits);
  registry.add({"dram.row_miss", "bursts", "dram_row_misses", "bursts to a precharged bank", false}, c.bank.row_misses);
  registry.add({"dram.row_conflict", "bursts", "dram_row_conflicts", "bursts that closed another row", false},
               c.bank.row_conflicts);
  registry.add({"dram.refresh_cycle", "DRAM cycles", "dram_refresh_cycles",
                "DRAM clock cycles of rank-time blocked by refresh", false},
               c.bank.refresh_cycles);
}

// dram: its data bus transferring.
inline void register_busy(BusyRegistry& registry, const DramCounters& c) {
  registry.add({"dram", ResourceKind::kMemory, BusyUnit::kPicoseconds,
                "the DRAM data bus transferring (the busiest port; the mean over channels)"},
               c.busy_ps);
}

class IDram : public sc_core::sc_module {
 public:
  using sc_core::sc_module::sc_module;
  virtual tlm::tlm_target_socket<>& target_socket() = 0;
  virtual const DramCounters& counters() const = 0;
  // The memory domain changes level (DVFS): the bus stops for `switch_time` once it is free, then serves
  // at `bandwidth_gbps`.
  virtual void change_bandwidth(double bandwidth_gbps, const sc_core::sc_time& switch_time) = 0;
  // Brings time-dependent counts (refresh, standby energy) up to `now`; the counters then include them.
  virtual void account_until(const sc_core::sc_time& /*now*/) {}
};

}  // namespace ergon
