#pragma once
// The counter tracks of trace.json: step functions of simulated time written as Trace Event Format counter
// events ("ph": "C"), one event per change of value, so a track grows with its changes, not with the run.
// Every value is a rate over a stretch of the run (bytes per second, accesses per ns, picojoules per
// picosecond), so integrating a track over time gives back the count it came from: the report's.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "arch/controller/activity.hpp"

namespace ergon {

// One counter track: `name` with one value per series. An event waits until time moves on, so that of
// several values set at one time only the last is written; a value equal (as printed) to the last one
// written is dropped. Perfetto names the track "<name> <series>".
class CounterTrack {
 public:
  CounterTrack(std::string name, std::string category, std::vector<std::string> series);
  // Sets the track to `values` (one per series) from `ts_ps` on; returns the event that became final.
  std::string set(std::uint64_t ts_ps, std::initializer_list<double> values);
  std::string flush();  // the event still waiting, if any

 private:
  struct Pending {
    std::uint64_t ts_ps;
    std::string args;
  };

  std::string name_;
  std::string category_;
  std::vector<std::string> series_;
  std::optional<Pending> pending_;
  std::string last_written_;  // the series as last printed
};

// Transfers that may overlap (DRAM reads, posted writes) as one bandwidth track in GB/s: at every moment
// the sum of bytes / duration over the transfers in flight. Transfers come in order of their start (they
// are traced when issued), so the track streams: only the transfers in flight are kept.
class TransferBandwidthTrack {
 public:
  explicit TransferBandwidthTrack(CounterTrack track) : track_(std::move(track)) {}
  std::string add(std::uint64_t start_ps, std::uint64_t end_ps, std::uint64_t bytes);
  std::string finish();  // every transfer in flight ends

 private:
  struct Transfer {
    std::uint64_t end_ps;
    double gbps;
  };
  std::string end_transfers_before(std::uint64_t ps);
  void drop_transfers_ending_at(std::uint64_t ps);
  double in_flight_gbps() const;

  CounterTrack track_;
  std::vector<Transfer> in_flight_;
};

// PE utilisation (active PEs over all, in percent) and the GLB's accesses per ns, from the activity
// intervals. Intervals gather in a bucket until flush() (the Perfetto writer flushes at every pass, stall
// and layer slice, so these tracks change no more often than those slices) or until the layer or the
// stall state changes. A bucket's value is its mean over the time it spans, so the integrals are kept.
// Between buckets the array idles: both tracks drop to 0.
class ActivityTracks {
 public:
  explicit ActivityTracks(std::int64_t pe_count);  // 0: the PE count is unknown, no utilisation track
  std::string add(const ActivityInterval& interval);
  std::string flush();
  std::string finish();

 private:
  struct Bucket {
    std::size_t layer_index = 0;
    bool stall = false;
    std::uint64_t start_ps = 0, end_ps = 0;
    std::uint64_t active_pe_ps = 0;  // active PEs x picoseconds
    std::uint64_t glb_accesses = 0;
  };
  std::string set_values(std::uint64_t ts_ps, double utilisation_percent, double glb_accesses_per_ns);

  std::int64_t pe_count_;
  CounterTrack utilisation_;
  CounterTrack glb_accesses_;
  std::optional<Bucket> bucket_;
  Bucket carried_;  // counts of a bucket left with no time of its own
  std::uint64_t last_end_ps_ = 0;
};

// A layer's span in simulated time.
struct LayerSpan {
  std::uint64_t start_ps = 0;
  std::uint64_t end_ps = 0;
};

// The energy the report priced for one layer, in picojoules.
struct LayerEnergy {
  double on_chip_pj = 0;  // every component but the DRAM, with clock, control and leakage
  double dram_pj = 0;
};

// One step of the power track: from `ts_ps` on, the chip draws these until the next step.
struct PowerStep {
  std::uint64_t ts_ps = 0;
  double on_chip_mw = 0;
  double dram_mw = 0;
};

// The mean power of every layer over its span (its energy / its time; spans that overlap add), as steps in
// order of time. Energy is priced per layer after the run, so this is the finest resolution that matches
// the report. Layers without a span (not executed) or without time are left out.
std::vector<PowerStep> layer_power_steps(const std::vector<std::optional<LayerSpan>>& spans,
                                         const std::vector<LayerEnergy>& energies);

}  // namespace ergon
