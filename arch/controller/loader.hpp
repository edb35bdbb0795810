#pragma once
// The loader owns the DRAM socket. Its thread walks each layer's steps (the plan stages them against what
// the GLB holds) and fetches each step's data over TLM into a free buffer: with double buffering while the
// previous step computes, else once the array has finished with the buffer. Psums evicted before they
// completed leave before the step's reads; ofmap write-backs are posted by the compute side. All traffic
// is addressed (dram_address_map.hpp) and goes through the socket in bursts of at most 4 KiB, each tagged
// with its operand stream. With `glb.prefetch: run_ahead` the loader does not wait for the data or a free
// buffer: each step carries the time its data arrives, and the array waits for that.
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <systemc>
#include <vector>

#include "arch/controller/command_queue.hpp"
#include "arch/controller/dram_address_map.hpp"
#include "arch/controller/dvfs_switch.hpp"
#include "arch/controller/layer_job.hpp"
#include "arch/controller/layer_values.hpp"
#include "arch/controller/run_events.hpp"
#include "arch/glb/global_buffer.hpp"
#include "dataflows/resident_traffic.hpp"

namespace ergon {

// A step with its data on chip, ready for the array.
struct LoadedStep {
  std::size_t job = 0;
  LayerStep step;
  std::uint64_t dram_read_bytes = 0;
  bool last_of_layer = false;
  ResidentTraffic::Moved on_chip;                     // what the GLB held of its activations (glb.keep_activations)
  sc_core::sc_time ready_at = sc_core::SC_ZERO_TIME;  // when its data is on chip
  friend std::ostream& operator<<(std::ostream& out, const LoadedStep& loaded) {  // sc_fifo prints its contents
    return out << "step of job " << loaded.job;
  }
};

class Loader : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Loader> dram_socket;
  using FailureHandler = std::function<void(std::size_t job, const std::string& message)>;

  // `values`: the layers' real values at cycle fidelity (steps staged with them); null at transaction level.
  // `commands`: the sequencer that issues the loads and stores (and the compute side's computes).
  Loader(sc_core::sc_module_name name, const std::vector<LayerJob>& jobs, IGlobalBuffer& glb, DvfsSwitch& dvfs,
         CommandQueue& commands, LayerValues* values, const RunEvents& events, FailureHandler on_failure);

  // The compute side, from its thread: the next loaded step (waits for it), the step's buffer released,
  // the layer's ofmap written (the next layer may load).
  LoadedStep next_step();
  void step_done();
  void layer_done();
  // A posted ofmap write, its store command issued: the DRAM serialises it with the reads that follow.
  void write(std::uint64_t bytes, std::size_t job);
  // When the last posted write completes, as the DRAM answered it.
  sc_core::sc_time writes_complete_at() const { return writes_complete_at_; }

 private:
  void load_thread();
  void load_layer(std::size_t job);
  void queue(LoadedStep&& loaded, bool double_buffered);
  struct StepReads {
    std::uint64_t filter_bytes = 0, ifmap_bytes = 0, psum_bytes = 0;
    std::uint64_t total() const { return filter_bytes + ifmap_bytes + psum_bytes; }
  };
  StepReads step_reads(const LayerJob& job, const LayerStep& step) const;
  sc_core::sc_time fetch(const StepReads& reads, std::size_t job);
  // Reads `bytes` of a stream, the part still within the layer's free first fill (`free_bytes`, consumed)
  // as arrived before the layer; returns when the rest has arrived.
  sc_core::sc_time read_stream(DramStream stream, RegionCursor& cursor, std::uint64_t bytes, std::uint64_t& free_bytes,
                               std::size_t job);
  // Sends `bytes` at the cursor's next addresses; returns when the last burst completes.
  sc_core::sc_time dram_transfer(tlm::tlm_command command, DramStream stream, RegionCursor& cursor, std::uint64_t bytes,
                                 std::size_t job, bool before_layer = false);
  std::size_t queued_steps() const { return capacity_ - static_cast<std::size_t>(next_.num_free()); }
  // Where each job's tensors are read and written next.
  struct JobCursors {
    RegionCursor filters, ifmaps, ofmap, spill_writes, spill_reads;
  };

  const std::vector<LayerJob>& jobs_;
  std::vector<JobCursors> cursors_;
  IGlobalBuffer& glb_;
  DvfsSwitch& dvfs_;
  CommandQueue& commands_;
  LayerValues* values_;
  const RunEvents& events_;
  FailureHandler on_failure_;
  StreamTiming free_fill_;             // what is left of the loading layer's free first fill
  std::size_t capacity_;               // steps the queue below holds: 1 (double buffering), or kRunAheadSteps
  sc_core::sc_fifo<LoadedStep> next_;  // the second buffer of double buffering, or the steps run ahead
  std::size_t steps_in_flight_ = 0;    // queued or computing
  sc_core::sc_event step_done_event_;
  std::size_t layers_done_ = 0;
  sc_core::sc_event layer_done_event_;
  std::size_t loading_job_ = 0;
  unsigned char stream_window_[64] = {};
  sc_core::sc_time writes_complete_at_ = sc_core::SC_ZERO_TIME;
};

}  // namespace ergon
