#include "arch/controller/controller.hpp"

#include <algorithm>
#include <cmath>

#include "arch/clock.hpp"

namespace ergon {

Controller::Controller(sc_core::sc_module_name name, ClockDomain& clock, const DvfsSetup& dvfs, IGlobalBuffer& glb,
                       INoc& noc, IPeArray& pe_array, IDram& dram, std::vector<LayerJob> jobs, RunObservers observers,
                       ICyclePeArray* cycle_array, bool check_outputs, ICycleSystolicArray* systolic_cycle_array)
    : sc_core::sc_module(name),
      dram_socket("dram_socket"),
      clock_(clock),
      dvfs_(dvfs),
      compute_level_(dvfs.initial),
      dram_bandwidth_gbps_(dvfs.initial.dram_bandwidth_gbps),
      glb_(glb),
      noc_(noc),
      pe_array_(pe_array),
      dram_(dram),
      jobs_(std::move(jobs)),
      observers_(std::move(observers)),
      cycle_array_(cycle_array),
      systolic_cycle_array_(systolic_cycle_array),
      check_outputs_(check_outputs),
      tensors_(jobs_.size()),
      measurements_(jobs_.size()) {
  SC_HAS_PROCESS(Controller);
  SC_THREAD(load_thread);
  SC_THREAD(compute_thread);
}

sc_core::sc_time Controller::dram_transfer(tlm::tlm_command command, std::uint64_t bytes, std::size_t job) {
  // Transaction-level traffic carries sizes, not values: bursts stream through a 64-byte window. A
  // transfer larger than a TLM payload can describe is issued as several bursts at once.
  constexpr std::uint64_t kMaxBurstBytes = std::uint64_t{1} << 30;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  for (std::uint64_t sent = 0; sent < bytes; sent += kMaxBurstBytes) {
    tlm::tlm_generic_payload payload;
    payload.set_command(command);
    payload.set_address(0);
    payload.set_data_ptr(stream_window_);
    payload.set_data_length(static_cast<unsigned int>(std::min(kMaxBurstBytes, bytes - sent)));
    payload.set_streaming_width(sizeof(stream_window_));
    payload.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time burst_delay = sc_core::SC_ZERO_TIME;
    dram_socket->b_transport(payload, burst_delay);
    delay = std::max(delay, burst_delay);
  }
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  trace(command == tlm::TLM_READ_COMMAND ? TraceEvent::Kind::kDramRead : TraceEvent::Kind::kDramWrite, job, now,
        now + delay, bytes);
  return delay;
}

// An exception inside a SystemC process would escape as a kernel error without context: record it with
// its layer and stop the simulation; the top level reports it after sc_start() returns.
void Controller::load_thread() {
  try {
    load_layers();
  } catch (const std::bad_alloc&) {
    record_failure(loading_job_, "out of memory (cycle fidelity holds a layer's tensors in memory)");
  } catch (const std::exception& error) {
    record_failure(loading_job_, error.what());
  }
}

void Controller::compute_thread() {
  try {
    compute_layers();
  } catch (const std::exception& error) {
    record_failure(computing_job_, error.what());
  }
}

void Controller::record_failure(std::size_t job, const std::string& message) {
  if (!failure_) failure_ = Failure{jobs_.empty() ? 0 : jobs_[job].layer_index, message};
  sc_core::sc_stop();
}

void Controller::load_layers() {
  for (std::size_t job_index = 0; job_index < jobs_.size(); ++job_index) {
    loading_job_ = job_index;
    while (layers_done_ < job_index) wait(layer_done_event_);  // the previous ofmap must be written first
    switch_memory_level(job_index);
    const LayerJob& job = jobs_[job_index];
    if (job.schedule) {
      load_schedule(job_index);
    } else if (job.systolic) {
      load_systolic(job_index);
    } else {
      load_elementwise(job_index);
    }
    // The layer's reads are done: a higher bandwidth for the next layer is switched to now, overlapping
    // the last pass (its write-back only gets faster). A lower one waits for the layer's end.
    if (job_index + 1 < jobs_.size() && jobs_[job_index + 1].levels.dram_bandwidth_gbps > dram_bandwidth_gbps_) {
      switch_memory_level(job_index + 1);
    }
  }
}

void Controller::load_schedule(std::size_t job_index) {
  const LayerJob& job = jobs_[job_index];
  const RowStationarySchedule& schedule = *job.schedule;
  const DramEncoding& encoding = job.encoding;
  RowStationaryStaging staging(schedule, glb_.contents(), encoding.ifmap_density);
  std::uint64_t remaining = schedule.pass_count();
  schedule.for_each_pass([&](const RowStationaryPass& pass) {
    PassWork work{job_index, pass, staging.stage(pass), 0, --remaining == 0, nullptr, std::nullopt};
    // Transaction level: the expected share of zeros; cycle fidelity: the zeros actually fetched.
    const std::uint64_t stored = work.traffic.ifmap_dram_stored_words;
    std::uint64_t nonzeros = DramEncoding::expected(stored, encoding.ifmap_density);
    if (cycle_array_ != nullptr) {
      stage_values(work);
      nonzeros = stored_nonzeros(schedule.nest(), job_tensors(job_index), pass, staging.fetched_ifmap_rows());
    }
    work.dram_read_bytes = encoding.raw_bytes(work.traffic.filter_dram_words + work.traffic.psum_spill_read_words) +
                           (stored > 0 ? encoding.ifmap_bytes(stored, nonzeros) : 0);
    if (work.traffic.psum_spill_write_words > 0) {  // the evicted psums leave before this pass's arrive
      dram_transfer(tlm::TLM_WRITE_COMMAND, encoding.raw_bytes(work.traffic.psum_spill_write_words), job_index);
    }
    queue_pass(work, schedule.mapping().double_buffered);
  });
}

void Controller::load_elementwise(std::size_t job_index) {
  const LayerJob& job = jobs_[job_index];
  const std::uint64_t chunks = job.elementwise->chunk_count();
  for (std::uint64_t i = 0; i < chunks; ++i) {
    PassWork work{job_index, {}, job.elementwise->chunk(i), 0, i + 1 == chunks, nullptr, std::nullopt};
    const std::uint64_t stored = work.traffic.ifmap_dram_stored_words;
    work.dram_read_bytes = job.encoding.ifmap_bytes(stored, DramEncoding::expected(stored, job.encoding.ifmap_density));
    queue_pass(work, true);
  }
}

void Controller::load_systolic(std::size_t job_index) {
  const LayerJob& job = jobs_[job_index];
  const SystolicSchedule& schedule = *job.systolic;
  std::optional<SystolicFold> previous;
  const std::uint64_t folds = schedule.fold_count();
  for (std::uint64_t i = 0; i < folds; ++i) {
    const SystolicFold fold = schedule.fold(i);
    PassWork work{job_index, {}, schedule.traffic(fold, previous), 0, i + 1 == folds, nullptr, std::nullopt};
    work.fold = fold;
    previous = fold;
    const std::uint64_t stored = work.traffic.ifmap_dram_stored_words;
    work.dram_read_bytes = job.encoding.raw_bytes(work.traffic.filter_dram_words) +
                           job.encoding.ifmap_bytes(stored, DramEncoding::expected(stored, job.encoding.ifmap_density));
    queue_pass(work, true);
  }
}

void Controller::queue_pass(const PassWork& work, bool double_buffered) {
  // Double buffering: one pass computes while the next one's tiles load; fetch only into a free buffer.
  // Single buffering: a fetch waits until the array has finished with the buffer.
  while (next_pass_.num_free() == 0) wait(next_pass_.data_read_event());
  if (work.dram_read_bytes > 0) {
    while (!double_buffered && passes_in_flight_ > 0) wait(pass_done_event_);
    wait(dram_transfer(tlm::TLM_READ_COMMAND, work.dram_read_bytes, work.job));
  }
  ++passes_in_flight_;
  next_pass_.write(work);
}

void Controller::compute_layers() {
  for (std::size_t job_index = 0; job_index < jobs_.size(); ++job_index) {
    computing_job_ = job_index;
    LayerMeasurement& layer = measurements_[job_index];
    const sc_core::sc_time layer_start = sc_core::sc_time_stamp();
    layer.start_cycle = cycle_at(layer_start);
    switch_compute_level(job_index, layer);
    // The loader may already have read this layer's first tiles: a layer's DRAM traffic is everything
    // since the previous layer ended.
    const DramCounters dram_before = dram_at_last_layer_end_;
    const GlbCounters glb_before = glb_.counters();
    const NocCounters noc_before = noc_.counters();
    const PeArrayCounters pe_before = pe_array_.counters();
    for (bool first = true, last = false; !last; first = false) {
      const sc_core::sc_time wait_start = sc_core::sc_time_stamp();
      const PassWork work = next_pass_.read();
      const sc_core::sc_time waited = sc_core::sc_time_stamp() - wait_start;
      // The pass's DRAM reads are shown in the stall that waited for them, else in the pass itself.
      std::uint64_t reads_to_show = work.dram_read_bytes;
      if (waited > sc_core::SC_ZERO_TIME) {
        const std::uint64_t stalled = cycle_at(sc_core::sc_time_stamp()) - cycle_at(wait_start);
        layer.stall_cycles += stalled;
        if (first) layer.fill_stall_cycles = stalled;
        ActivityInterval stall;
        stall.stall = true;
        stall.dram_bytes = work.dram_read_bytes;
        if (emit(job_index, wait_start, stall)) reads_to_show = 0;
        trace(TraceEvent::Kind::kStall, job_index, wait_start, sc_core::sc_time_stamp());
      }
      if (systolic_cycle_array_ != nullptr && jobs_[work.job].systolic) {
        run_fold_cycle_accurate(work, layer, reads_to_show);
      } else if (cycle_array_ != nullptr && jobs_[work.job].schedule) {
        run_pass_cycle_accurate(work, layer, reads_to_show);
      } else {
        run_pass(work, layer, reads_to_show);
      }
      last = work.last_of_layer;
      --passes_in_flight_;
      pass_done_event_.notify(sc_core::SC_ZERO_TIME);
    }
    const sc_core::sc_time drain_start = sc_core::sc_time_stamp();
    if (dram_.idle_from() > drain_start) {  // the ofmap write-back must land before the layer ends
      wait(dram_.idle_from() - drain_start);
      layer.drain_stall_cycles = cycle_at(sc_core::sc_time_stamp()) - cycle_at(drain_start);
      layer.stall_cycles += layer.drain_stall_cycles;
      ActivityInterval drain;
      drain.stall = true;
      emit(job_index, drain_start, drain);
      trace(TraceEvent::Kind::kStall, job_index, drain_start, sc_core::sc_time_stamp());
    }
    layer.end_cycle = cycle_at(sc_core::sc_time_stamp());
    layer.start_ps = picoseconds(layer_start);
    layer.end_ps = picoseconds(sc_core::sc_time_stamp());
    trace(TraceEvent::Kind::kLayer, job_index, layer_start, sc_core::sc_time_stamp());
    layer.dram_read_bytes = dram_.counters().read_bytes - dram_before.read_bytes;
    layer.dram_write_bytes = dram_.counters().write_bytes - dram_before.write_bytes;
    const double busy_ps = static_cast<double>(dram_.counters().busy_ps - dram_before.busy_ps);
    layer.dram_busy_cycles = static_cast<std::uint64_t>(std::ceil(busy_ps / (clock_.period().to_seconds() * 1e12)));
    dram_at_last_layer_end_ = dram_.counters();
    layer.glb_reads = glb_.counters().reads - glb_before.reads;
    layer.glb_writes = glb_.counters().writes - glb_before.writes;
    layer.noc_transfers = noc_.counters().transfers() - noc_before.transfers();
    layer.filter_bus_words = noc_.counters().filter_bus_words - noc_before.filter_bus_words;
    layer.ifmap_bus_words = noc_.counters().ifmap_bus_words - noc_before.ifmap_bus_words;
    layer.psum_bus_words = noc_.counters().psum_bus_words - noc_before.psum_bus_words;
    layer.inter_pe_psum_words = noc_.counters().inter_pe_psum_words - noc_before.inter_pe_psum_words;
    layer.macs = pe_array_.counters().macs - pe_before.macs;
    layer.nonzero_macs = pe_array_.counters().nonzero_macs - pe_before.nonzero_macs;
    layer.rf_accesses = pe_array_.counters().rf_accesses - pe_before.rf_accesses;
    layer.pe_busy_cycles = pe_array_.counters().pe_busy_cycles - pe_before.pe_busy_cycles;
    const bool cycle_accurate = (cycle_array_ != nullptr && jobs_[job_index].schedule) ||
                                (systolic_cycle_array_ != nullptr && jobs_[job_index].systolic);
    if (cycle_accurate && check_outputs_) check_output(job_index, layer);
    tensors_[job_index].reset();
    ++layers_done_;
    layer_done_event_.notify(sc_core::SC_ZERO_TIME);
  }
}

void Controller::run_pass(const PassWork& work, LayerMeasurement& layer, std::uint64_t read_bytes_to_show) {
  const PassTraffic& t = work.traffic;
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  // The array's dataflow decides how its work overlaps the NoC and GLB traffic of the pass.
  wait(clock_.period() * static_cast<double>(pe_array_.pass_cycles(t, noc_, glb_)));
  glb_.record(t.glb_reads, t.glb_writes);
  noc_.record(t.filter_bus_words, t.ifmap_bus_words, t.psum_bus_words, t.inter_pe_psum_words);
  pe_array_.record(t.macs, t.nonzero_macs, t.rf_accesses);
  ++layer.passes;
  layer.peak_active_pes = std::max(layer.peak_active_pes, t.active_pes);
  ActivityInterval busy;
  busy.active_pes = t.active_pes;
  busy.macs = t.nonzero_macs;
  busy.rf_accesses = t.rf_accesses;
  busy.noc_transfers = t.filter_bus_words + t.ifmap_bus_words + t.psum_bus_words + t.inter_pe_psum_words;
  busy.glb_accesses = t.glb_reads + t.glb_writes;
  post_ofmap(t.ofmap_dram_words, work.job, busy);
  busy.dram_bytes += read_bytes_to_show;
  emit(work.job, start, busy);
  trace(TraceEvent::Kind::kPass, work.job, start, sc_core::sc_time_stamp());
}

void Controller::post_ofmap(std::uint64_t words, std::size_t job, ActivityInterval& activity) {
  if (words == 0) return;
  // A posted write: the DRAM serialises it with the reads that follow.
  activity.dram_bytes = jobs_[job].encoding.ofmap_bytes(words);
  dram_transfer(tlm::TLM_WRITE_COMMAND, activity.dram_bytes, job);
}

void Controller::stage_values(PassWork& work) {
  const LoopNest& nest = job_nest(work.job);
  const LayerTensors& tensors = job_tensors(work.job);
  auto staged = std::make_shared<StagedPass>();
  if (work.traffic.filter_bus_words > 0) {
    staged->filter_tile = std::make_shared<const std::vector<std::int16_t>>(filter_tile(nest, tensors, work.pass));
  }
  staged->ifmap_tile = std::make_shared<const std::vector<std::int16_t>>(ifmap_tile(nest, tensors, work.pass));
  staged->deposited_words = work.traffic.deposited_words();
  work.staged = std::move(staged);
}

void Controller::run_pass_cycle_accurate(const PassWork& work, LayerMeasurement& layer,
                                         std::uint64_t read_bytes_to_show) {
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  const LayerJob& job = jobs_[work.job];
  const std::uint64_t write_bytes = job.encoding.ofmap_bytes(work.traffic.ofmap_dram_words);
  // The array records its own activity cycle by cycle; the controller adds the stalls.
  const ActivitySink per_cycle = observers_.activity ? ActivitySink([this](const ActivityInterval& cycles) {
    if (cycles.end_cycle <= cycles.start_cycle) return false;  // shorter than a cycle
    ActivityInterval interval = cycles;
    interval.start_ps = picoseconds(clock_.time_of(interval.start_cycle));
    interval.end_ps = picoseconds(clock_.time_of(interval.end_cycle));
    interval.frequency_mhz = compute_level_.frequency_mhz;
    interval.voltage_v = compute_level_.voltage_v;
    observers_.activity(interval);
    return true;
  })
                                                     : ActivitySink();
  cycle_array_->start(job.schedule->nest(), job.schedule->tiling(), work.pass, *work.staged, job_tensors(work.job),
                      per_cycle, job.layer_index, write_bytes + read_bytes_to_show);
  wait(cycle_array_->done_event());
  const MeasuredPass& measured = cycle_array_->measured();
  glb_.record(measured.glb_reads + work.traffic.psum_spill_write_words, measured.glb_writes);
  noc_.record(measured.filter_bus_words, measured.ifmap_bus_words, measured.psum_bus_words,
              measured.inter_pe_psum_words);
  pe_array_.record(measured.macs, measured.nonzero_macs, measured.rf_accesses);
  ++layer.passes;
  layer.peak_active_pes = std::max(layer.peak_active_pes, measured.active_pes);
  if (measured.ofmap_words > 0) {  // posted write, as at transaction level
    dram_transfer(tlm::TLM_WRITE_COMMAND, job.encoding.ofmap_bytes(measured.ofmap_words), work.job);
  }
  trace(TraceEvent::Kind::kPass, work.job, start, sc_core::sc_time_stamp());
}

const LoopNest& Controller::job_nest(std::size_t job) const {
  return jobs_[job].schedule ? jobs_[job].schedule->nest() : jobs_[job].systolic->nest();
}

LayerTensors& Controller::job_tensors(std::size_t job) {
  auto& tensors = tensors_[job];
  if (!tensors) {  // synthetic values at the layer's sparsity, seeded by the layer's position
    const LayerJob& layer_job = jobs_[job];
    tensors = std::make_shared<LayerTensors>(synthetic_tensors(job_nest(job), 1 - layer_job.encoding.ifmap_density,
                                                               layer_job.encoding.word_bits,
                                                               0x5eed0000 + layer_job.layer_index));
  }
  return *tensors;
}

void Controller::run_fold_cycle_accurate(const PassWork& work, LayerMeasurement& layer,
                                         std::uint64_t read_bytes_to_show) {
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  systolic_cycle_array_->start(*jobs_[work.job].systolic, *work.fold, work.traffic, job_tensors(work.job));
  wait(systolic_cycle_array_->done_event());
  record_fold(work, systolic_cycle_array_->measured(), layer, start, read_bytes_to_show);
}

void Controller::record_fold(const PassWork& work, const MeasuredPass& measured, LayerMeasurement& layer,
                             const sc_core::sc_time& start, std::uint64_t read_bytes_to_show) {
  glb_.record(measured.glb_reads + measured.filter_bus_words + measured.ifmap_bus_words,
              measured.glb_writes + measured.psum_bus_words);
  noc_.record(measured.filter_bus_words, measured.ifmap_bus_words, measured.psum_bus_words,
              measured.inter_pe_psum_words);
  pe_array_.record(measured.macs, measured.nonzero_macs, measured.rf_accesses);
  ++layer.passes;
  layer.peak_active_pes = std::max(layer.peak_active_pes, measured.active_pes);
  ActivityInterval busy;
  busy.active_pes = measured.active_pes;
  busy.macs = measured.nonzero_macs;
  busy.noc_transfers =
      measured.filter_bus_words + measured.ifmap_bus_words + measured.psum_bus_words + measured.inter_pe_psum_words;
  busy.glb_accesses = measured.glb_reads + measured.glb_writes + measured.filter_bus_words + measured.ifmap_bus_words +
                      measured.psum_bus_words;
  post_ofmap(measured.ofmap_words, work.job, busy);
  busy.dram_bytes += read_bytes_to_show;
  emit(work.job, start, busy);
  trace(TraceEvent::Kind::kPass, work.job, start, sc_core::sc_time_stamp());
}

void Controller::check_output(std::size_t job, LayerMeasurement& layer) {
  const std::vector<std::int32_t> expected = reference_output(job_nest(job), *tensors_[job]);
  const std::vector<std::int32_t>& simulated = tensors_[job]->ofmap;
  layer.output_checked = true;
  for (std::size_t i = 0; i < expected.size(); ++i) layer.output_mismatches += expected[i] != simulated[i] ? 1 : 0;
}

std::uint64_t Controller::cycle_at(const sc_core::sc_time& time) const {
  return clock_.cycle_at(time);
}

// The compute domain stops its clock while the level changes; the loader meanwhile fetches the layer's
// first tiles at the memory domain's level.
void Controller::switch_compute_level(std::size_t job, LayerMeasurement& layer) {
  const OperatingLevels& wanted = jobs_[job].levels;
  if (wanted.frequency_mhz == compute_level_.frequency_mhz && wanted.voltage_v == compute_level_.voltage_v) return;
  const sc_core::sc_time stop = sc_core::sc_time_stamp();
  if (dvfs_.compute_switch > sc_core::SC_ZERO_TIME) wait(dvfs_.compute_switch);
  clock_.retime(stop, sc_core::sc_time_stamp(), sc_core::sc_time(1e6 / wanted.frequency_mhz, sc_core::SC_PS));
  layer.dvfs_switch_ps += picoseconds(sc_core::sc_time_stamp()) - picoseconds(stop);
  compute_level_ = wanted;
  if (observers_.activity && sc_core::sc_time_stamp() > stop) {
    ActivityInterval interval;
    interval.layer_index = jobs_[job].layer_index;
    interval.start_cycle = interval.end_cycle = cycle_at(stop);
    interval.start_ps = picoseconds(stop);
    interval.end_ps = picoseconds(sc_core::sc_time_stamp());
    interval.dvfs_switch = true;
    interval.frequency_mhz = wanted.frequency_mhz;
    interval.voltage_v = wanted.voltage_v;
    observers_.activity(interval);
  }
  trace(TraceEvent::Kind::kDvfsSwitch, job, stop, sc_core::sc_time_stamp());
}

// Also called ahead, once the previous layer's reads are done; a no-op when the level is already set.
void Controller::switch_memory_level(std::size_t job) {
  const double wanted = jobs_[job].levels.dram_bandwidth_gbps;
  if (wanted == dram_bandwidth_gbps_) return;
  dram_.change_bandwidth(wanted, dvfs_.memory_switch);
  dram_bandwidth_gbps_ = wanted;
}

void Controller::trace(TraceEvent::Kind kind, std::size_t job, const sc_core::sc_time& start,
                       const sc_core::sc_time& end, std::uint64_t bytes) {
  if (!observers_.trace) return;
  observers_.trace({kind, jobs_[job].layer_index, picoseconds(start), picoseconds(end), bytes});
}

bool Controller::emit(std::size_t job, const sc_core::sc_time& start, const ActivityInterval& counts) {
  if (!observers_.activity) return false;
  ActivityInterval interval = counts;
  interval.layer_index = jobs_[job].layer_index;
  interval.start_cycle = cycle_at(start);
  interval.end_cycle = cycle_at(sc_core::sc_time_stamp());
  interval.start_ps = picoseconds(start);
  interval.end_ps = picoseconds(sc_core::sc_time_stamp());
  interval.frequency_mhz = compute_level_.frequency_mhz;
  interval.voltage_v = compute_level_.voltage_v;
  if (interval.end_cycle <= interval.start_cycle) return false;  // shorter than a cycle
  observers_.activity(interval);
  return true;
}

}  // namespace ergon
