#pragma once
// Activity as piecewise-constant intervals: over [start_cycle, end_cycle) of the compute clock, i.e.
// [start_ps, end_ps) of simulated time, the listed counts happen at a uniform rate. Transaction-level runs emit one
// interval per pass phase; consumers get them as a stream (ActivitySink), so memory does not grow with the network.
#include <cstdint>
#include <functional>

namespace ergon {

struct ActivityInterval {
  std::size_t layer_index = 0;
  std::uint64_t start_cycle = 0;
  std::uint64_t end_cycle = 0;
  std::uint64_t active_pes = 0;
  std::uint64_t macs = 0;  // non-zero (charged) MACs
  std::uint64_t rf_accesses = 0;
  std::uint64_t noc_transfers = 0;
  std::uint64_t glb_accesses = 0;
  std::uint64_t dram_bytes = 0;
  bool stall = false;        // waiting for data
  bool dvfs_switch = false;  // the compute clock stopped while its level changed (no cycles pass)
  std::uint64_t start_ps = 0;
  std::uint64_t end_ps = 0;
  double frequency_mhz = 0;  // the compute domain's level in force
  double voltage_v = 0;
  double dram_bandwidth_gbps = 0;  // the memory domain's level in force
};

using ActivitySink = std::function<void(const ActivityInterval&)>;

// Timeline events for trace viewers: layers, passes, stalls and DRAM transfers, in picoseconds; kLevels
// marks the levels in force from start_ps on (the run's start and every level change).
struct TraceEvent {
  enum class Kind { kLayer, kPass, kStall, kDramRead, kDramWrite, kDvfsSwitch, kLevels };
  Kind kind = Kind::kPass;
  std::size_t layer_index = 0;
  std::uint64_t start_ps = 0;
  std::uint64_t end_ps = 0;
  std::uint64_t bytes = 0;                                           // DRAM transfers
  double frequency_mhz = 0, voltage_v = 0, dram_bandwidth_gbps = 0;  // kLevels
  // kLayer: activations the GLB held (glb.keep_activations), as LayerMeasurement counts them.
  std::uint64_t input_bytes_on_chip = 0, output_bytes_kept = 0;
};

using TraceSink = std::function<void(const TraceEvent&)>;

// A layer finished at `end_cycle` of the compute clock (progress displays).
using LayerDoneSink = std::function<void(std::size_t layer_index, std::uint64_t end_cycle)>;

// Asked before each layer is planned and after every step of the array: true stops the run there (Ctrl-C in
// the Python package), and Simulation::run throws Interrupted. Called often: it must be cheap.
using InterruptCheck = std::function<bool()>;
// A step (pass) of a layer finished with `macs` MACs (gated ones included) at `cycle` of the compute clock:
// progress within a long layer.
using StepDoneSink = std::function<void(std::size_t layer_index, std::uint64_t macs, std::uint64_t cycle)>;

// Who watches a run; any may be empty.
struct RunObservers {
  ActivitySink activity;
  TraceSink trace;
  LayerDoneSink layer_done;
  InterruptCheck interrupt_requested;
  StepDoneSink step_done;
};

}  // namespace ergon
