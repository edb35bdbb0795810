#pragma once
// Off-chip DRAM: a TLM-2.0 target. A burst is one blocking transport whose annotated delay says when
// its data has arrived (reads) or been absorbed (writes). Implementations: arch/dram/impl/.
#include <cstdint>
#include <optional>
#include <systemc>
#include <tlm>
#include <vector>

#include "common/busy_registry.hpp"
#include "common/counter_registry.hpp"

namespace ergon {

// A bank-level model's command counts and times (arch/dram/banked/), cumulative since the run began. They
// are a count record, not energy: power/dram/ prices them from the preset's datasheet currents.
struct DramCommandCounts {
  std::uint64_t row_hits = 0;       // the access's row was open
  std::uint64_t row_misses = 0;     // the bank was precharged: one activate
  std::uint64_t row_conflicts = 0;  // another row was open: precharge, then activate
  std::uint64_t activates = 0, reads = 0, writes = 0, refreshes = 0;
  std::int64_t read_burst_ps = 0, write_burst_ps = 0;  // data-bus time (bursts shorten with a faster clock)
  // Times weighted by the clock in force over the nominal one (f / f_nominal): the currents a datasheet
  // gives at its rated clock scale with the clock (power/dram/drampower_energy.hpp), so energy is priced on
  // these.
  double clocked_read_burst_ps = 0, clocked_write_burst_ps = 0;
  double clocked_bank_open_ps = 0;  // summed over banks: time with a row open
  double clocked_elapsed_ps = 0;    // rank-time observed
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
  // The model's own statistics (row-buffer outcomes, refresh, ...): counters it declares in its DramImpl
  // entry (arch/components.hpp), counted in `statistics`, same order. Sized once: the registry keeps
  // references to them.
  std::vector<CounterSpec> statistic_specs;
  std::vector<std::uint64_t> statistics;
  // Set by a model that counts its commands (`reports_commands` in its DramImpl): power/ prices them.
  std::optional<DramCommandCounts> commands;
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

// dram.read and dram.write in bytes, then the model's own statistics.
inline void register_counters(CounterRegistry& registry, const DramCounters& c) {
  registry.add(Action::kDramRead, c.read_bytes);
  registry.add(Action::kDramWrite, c.write_bytes);
  registry.add_tensor_shares(Action::kDramRead, c.read_shares);
  registry.add_tensor_shares(Action::kDramWrite, c.write_shares);
  for (std::size_t i = 0; i < c.statistic_specs.size(); ++i) registry.add(c.statistic_specs[i], c.statistics[i]);
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
  // Brings time-dependent counts (refresh, standby time) up to `now`; the counters then include them.
  virtual void account_until(const sc_core::sc_time& /*now*/) {}
};

}  // namespace ergon
