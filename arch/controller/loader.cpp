#include "arch/controller/loader.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace ergon {
namespace {

std::size_t queue_capacity(const std::vector<LayerJob>& jobs) {
  const bool run_ahead =
      std::any_of(jobs.begin(), jobs.end(), [](const LayerJob& job) { return job.plan->stream_timing().run_ahead; });
  return run_ahead ? kRunAheadSteps : 1;
}

}  // namespace

Loader::Loader(sc_core::sc_module_name name, const std::vector<LayerJob>& jobs, IGlobalBuffer& glb, DvfsSwitch& dvfs,
               CommandQueue& commands, LayerValues* values, const RunEvents& events, FailureHandler on_failure)
    : sc_core::sc_module(name),
      dram_socket("dram_socket"),
      jobs_(jobs),
      glb_(glb),
      dvfs_(dvfs),
      commands_(commands),
      values_(values),
      events_(events),
      on_failure_(std::move(on_failure)),
      capacity_(queue_capacity(jobs)),
      next_("next_step", static_cast<int>(capacity_)) {
  for (const LayerJob& job : jobs_) {
    const LayerRegions& r = job.dram;
    cursors_.push_back({RegionCursor({r.filters}), RegionCursor(r.ifmaps), RegionCursor({r.ofmap}),
                        RegionCursor({r.psum_spill}), RegionCursor({r.psum_spill})});
  }
  SC_HAS_PROCESS(Loader);
  SC_THREAD(load_thread);
}

// An exception inside a SystemC process would escape as a kernel error without context: hand it over with
// its layer; the run stops there.
void Loader::load_thread() {
  try {
    for (loading_job_ = 0; loading_job_ < jobs_.size(); ++loading_job_) load_layer(loading_job_);
  } catch (const std::bad_alloc&) {
    on_failure_(loading_job_, "out of memory (cycle fidelity holds a layer's tensors in memory)");
  } catch (const std::exception& error) {
    on_failure_(loading_job_, error.what());
  }
}

void Loader::load_layer(std::size_t job_index) {
  while (layers_done_ < job_index) wait(layer_done_event_);  // the previous ofmap must be written first
  const LayerJob& job = jobs_[job_index];
  dvfs_.switch_memory(job.levels, job.layer_index);
  free_fill_ = job.plan->stream_timing();
  const LayerTensors* tensors =
      values_ != nullptr && job.plan->cycle_accurate() ? values_->tensors(job_index) : nullptr;
  // Steps are generated one at a time; the last one is only known once the walk ends, so each is queued
  // when the next arrives.
  std::optional<LoadedStep> pending;
  ResidentTraffic resident(job.residency, job.plan->encoding());
  job.plan->for_each_step(glb_.contents(), tensors, [&](LayerStep&& step) {
    if (pending) queue(std::move(*pending), job.plan->double_buffered());
    pending = LoadedStep{job_index, std::move(step), 0, false, {}};
    if (job.residency.any()) pending->on_chip = resident.apply(pending->step);
  });
  if (pending) {
    pending->last_of_layer = true;
    queue(std::move(*pending), job.plan->double_buffered());
  }
  // The layer's reads are done: a higher bandwidth for the next layer is switched to now, overlapping the
  // last step (its write-back only gets faster). A lower one waits for the layer's end.
  if (job_index + 1 < jobs_.size() && jobs_[job_index + 1].levels.dram_bandwidth_gbps > dvfs_.dram_bandwidth_gbps()) {
    dvfs_.switch_memory(jobs_[job_index + 1].levels, jobs_[job_index + 1].layer_index);
  }
}

Loader::StepReads Loader::step_reads(const LayerJob& job, const LayerStep& step) const {
  const StepTraffic& t = step.traffic;
  const DramEncoding& encoding = job.plan->encoding();
  const std::uint64_t stored = t.ifmap_dram_stored_words;
  return {encoding.weight_bytes(t.filter_dram_words),
          stored > 0 ? encoding.ifmap_bytes(stored, step.stored_ifmap_nonzeros) : 0,
          encoding.psum_bytes(t.psum_spill_read_words)};
}

// A step's tensors are fetched together: the DRAM interleaves their bursts as its scheduler decides.
sc_core::sc_time Loader::fetch(const StepReads& reads, std::size_t job) {
  JobCursors& cursors = cursors_[job];
  std::uint64_t no_free_fill = 0;
  return std::max(
      {read_stream(DramStream::kFilters, cursors.filters, reads.filter_bytes, free_fill_.free_filter_bytes, job),
       read_stream(DramStream::kIfmaps, cursors.ifmaps, reads.ifmap_bytes, free_fill_.free_ifmap_bytes, job),
       read_stream(DramStream::kPsums, cursors.spill_reads, reads.psum_bytes, no_free_fill, job)});
}

sc_core::sc_time Loader::read_stream(DramStream stream, RegionCursor& cursor, std::uint64_t bytes,
                                     std::uint64_t& free_bytes, std::size_t job) {
  const std::uint64_t free = std::min(bytes, free_bytes);
  free_bytes -= free;
  if (free > 0) dram_transfer(tlm::TLM_READ_COMMAND, stream, cursor, free, job, true);
  if (bytes == free) return sc_core::SC_ZERO_TIME;
  return dram_transfer(tlm::TLM_READ_COMMAND, stream, cursor, bytes - free, job);
}

void Loader::queue(LoadedStep&& loaded, bool double_buffered) {
  const LayerJob& job = jobs_[loaded.job];
  const StepReads reads = step_reads(job, loaded.step);
  loaded.dram_read_bytes = reads.total();
  const std::uint64_t spilled = loaded.step.traffic.psum_spill_write_words;
  if (spilled > 0) {  // the evicted psums leave before this step's arrive: a store command
    commands_.wait_until_issued(CommandQueue::Engine::kStore);
    const sc_core::sc_time delay =
        dram_transfer(tlm::TLM_WRITE_COMMAND, DramStream::kPsums, cursors_[loaded.job].spill_writes,
                      job.plan->encoding().psum_bytes(spilled), loaded.job);
    commands_.left(CommandQueue::Engine::kStore, sc_core::sc_time_stamp() + delay);
  }
  // Double buffering: one step computes while the next one's tiles load; fetch only into a free buffer.
  // Single buffering: a fetch waits until the array has finished with the buffer. Running ahead: fetch
  // at once; the array waits for the data.
  const bool run_ahead = job.plan->stream_timing().run_ahead;
  while (queued_steps() >= (run_ahead ? capacity_ : 1)) wait(next_.data_read_event());
  if (loaded.dram_read_bytes > 0) {
    while (!double_buffered && steps_in_flight_ > 0) wait(step_done_event_);
    commands_.wait_until_issued(CommandQueue::Engine::kLoad);
    commands_.left(CommandQueue::Engine::kLoad, sc_core::sc_time_stamp());
    const sc_core::sc_time delay = fetch(reads, loaded.job);
    if (run_ahead) {
      loaded.ready_at = sc_core::sc_time_stamp() + delay;
    } else {
      wait(delay);
    }
  }
  ++steps_in_flight_;
  next_.write(std::move(loaded));
}

LoadedStep Loader::next_step() {
  return next_.read();
}

void Loader::step_done() {
  --steps_in_flight_;
  step_done_event_.notify(sc_core::SC_ZERO_TIME);
}

void Loader::layer_done() {
  ++layers_done_;
  layer_done_event_.notify(sc_core::SC_ZERO_TIME);
}

void Loader::write(std::uint64_t bytes, std::size_t job) {
  const sc_core::sc_time delay =
      dram_transfer(tlm::TLM_WRITE_COMMAND, DramStream::kOfmaps, cursors_[job].ofmap, bytes, job);
  commands_.left(CommandQueue::Engine::kStore, sc_core::sc_time_stamp() + delay);
}

sc_core::sc_time Loader::dram_transfer(tlm::tlm_command command, DramStream stream, RegionCursor& cursor,
                                       std::uint64_t bytes, std::size_t job, bool before_layer) {
  // Transaction-level traffic carries sizes, not values: bursts stream through a 64-byte window. The
  // bursts are issued back to back, as a DMA engine with many requests outstanding would; the DRAM's
  // request queue and bus decide when each completes.
  constexpr std::uint64_t kMaxBurstBytes = 4096;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  DramStreamExtension tag;
  tag.stream = stream;
  tag.before_layer = before_layer;
  // One payload serves every burst of the transfer: constructing one allocates its extension array, which
  // cost as much as the DRAM model's own work per 4 KiB burst.
  tlm::tlm_generic_payload payload;
  payload.set_extension(&tag);
  // The payload must not free the tag, which lives on this stack, however the transfer ends.
  const std::unique_ptr<tlm::tlm_generic_payload, void (*)(tlm::tlm_generic_payload*)> untag(
      &payload, [](tlm::tlm_generic_payload* p) { p->clear_extension<DramStreamExtension>(); });
  payload.set_command(command);
  payload.set_data_ptr(stream_window_);
  payload.set_streaming_width(sizeof(stream_window_));
  cursor.advance(bytes, kMaxBurstBytes, [&](std::uint64_t address, std::uint64_t burst_bytes) {
    payload.set_address(address);
    payload.set_data_length(static_cast<unsigned int>(burst_bytes));
    payload.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time burst_delay = sc_core::SC_ZERO_TIME;
    dram_socket->b_transport(payload, burst_delay);
    if (payload.is_response_error()) {
      throw std::runtime_error("the DRAM refused a " + std::to_string(burst_bytes) + "-byte burst at address " +
                               std::to_string(address) + " (" + payload.get_response_string() + ")");
    }
    delay = std::max(delay, burst_delay);
  });
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  if (command == tlm::TLM_WRITE_COMMAND) writes_complete_at_ = std::max(writes_complete_at_, now + delay);
  events_.trace(command == tlm::TLM_READ_COMMAND ? TraceEvent::Kind::kDramRead : TraceEvent::Kind::kDramWrite,
                jobs_[job].layer_index, now, now + delay, bytes);
  return delay;
}

}  // namespace ergon
