#pragma once
// The PE array at cycle fidelity: steps every cycle on real values and counts what it moves; the counts
// must equal the transaction-level formulas. Each dataflow brings its own (arch/pe_array/impl/); the
// controller drives it one step of a LayerPlan at a time.
#include <cstdint>
#include <systemc>

#include "arch/controller/activity.hpp"
#include "dataflows/layer_tensors.hpp"
#include "dataflows/step_traffic.hpp"

namespace ergon {

class LayerPlan;
struct LayerStep;

struct MeasuredStep {
  std::uint64_t macs = 0;
  std::uint64_t nonzero_macs = 0;
  RfAccesses rf;
  std::uint64_t filter_bus_words = 0;
  std::uint64_t ifmap_bus_words = 0;
  std::uint64_t psum_bus_words = 0;
  std::uint64_t pe_hop_words = 0;
  std::uint64_t glb_reads = 0;
  std::uint64_t glb_writes = 0;
  std::uint64_t ofmap_words = 0;
  std::uint64_t active_pes = 0;
  std::uint64_t pe_busy_cycles = 0;  // PE-cycles spent on MACs
  std::uint64_t cycles = 0;
  // What the array charges the modules as their busy time: the cycles in which it shifted its stationary
  // operand in, streamed, computed a MAC or rippled psums; the words the psum buses and the GLB's ports
  // moved (each busy ceil(words / width) cycles, as at transaction level: a wide port moving one word in a
  // cycle is not the bottleneck).
  std::uint64_t array_busy_cycles = 0;
  std::uint64_t psum_read_bus_words = 0;
  std::uint64_t psum_write_bus_words = 0;
  std::uint64_t glb_read_port_words = 0;
  std::uint64_t glb_write_port_words = 0;
};

class ICycleArray : public sc_core::sc_module {
 public:
  using sc_core::sc_module::sc_module;
  // Runs one step of `plan` (made by the same dataflow) from the current time; done_event() fires when
  // its results are back in the GLB. The array records its GLB, NoC and PE activity in those modules, and
  // sends its activity (runs of identical cycles merged) to `activity`, attributed to `layer_index`;
  // `dram_bytes` (the step's DRAM traffic still to be shown) goes to its last cycle.
  virtual void start(const LayerPlan& plan, const LayerStep& step, LayerTensors& tensors, const ActivitySink& activity,
                     std::size_t layer_index, std::uint64_t dram_bytes) = 0;
  virtual const sc_core::sc_event& done_event() const = 0;
  virtual const MeasuredStep& measured() const = 0;
};

}  // namespace ergon
