#include "arch/controller/controller.hpp"

#include <algorithm>
#include <cmath>

namespace ergon {

Controller::Controller(sc_core::sc_module_name name, ControlledModules modules, const DvfsSetup& dvfs,
                       const CommandsConfig& commands, std::vector<LayerJob> jobs, RunObservers observers,
                       bool check_outputs)
    : sc_core::sc_module(name),
      modules_(modules),
      jobs_(std::move(jobs)),
      events_(modules.clock, std::move(observers), dvfs.initial),
      dvfs_(modules.clock, modules.dram, dvfs, events_),
      values_(modules.cycle_array != nullptr ? std::make_unique<LayerValues>(jobs_) : nullptr),
      check_outputs_(check_outputs),
      commands_(commands, modules.clock),
      loader_("loader", jobs_, modules.glb, dvfs_, commands_, values_.get(), events_,
              [this](std::size_t job, const std::string& message) { record_failure(job, message); }),
      measurements_(jobs_.size()),
      at_last_layer_end_(modules.counters.snapshot()) {
  modules.busy.add({"fill_drain", ResourceKind::kFillDrain, BusyUnit::kComputeCycles,
                    "the array waiting for a layer's first data and for its last write-back"},
                   fill_drain_cycles_);
  modules.busy.add({"dvfs_switch", ResourceKind::kDvfsSwitch, BusyUnit::kPicoseconds,
                    "the compute clock stopped while its level changed"},
                   dvfs_switch_ps_);
  if (commands.issue_cycles > 0) {  // free issue is never busy: no column for it
    modules.busy.add({"sequencer", ResourceKind::kSequencer, BusyUnit::kComputeCycles,
                      "the sequencer issuing tile commands (commands.issue_cycles each)"},
                     commands_.issue_cycles());
  }
  busy_at_last_layer_end_ = modules.busy.snapshot();
  SC_HAS_PROCESS(Controller);
  SC_THREAD(compute_thread);
}

// An exception inside a SystemC process would escape as a kernel error without context: record it with
// its layer and stop the simulation; the top level reports it after sc_start() returns.
void Controller::compute_thread() {
  try {
    if (!jobs_.empty()) events_.trace_levels(jobs_.front().layer_index);  // the levels the run starts at
    for (computing_job_ = 0; computing_job_ < jobs_.size() && !interrupted_at_layer_; ++computing_job_) {
      compute_layer(computing_job_);
    }
  } catch (const std::exception& error) {
    record_failure(computing_job_, error.what());
  }
}

void Controller::record_failure(std::size_t job, const std::string& message) {
  if (!failure_) failure_ = Failure{jobs_.empty() ? 0 : jobs_[job].layer_index, message};
  sc_core::sc_stop();
}

bool Controller::runs_cycle_accurate(std::size_t job) const {
  return modules_.cycle_array != nullptr && jobs_[job].plan->cycle_accurate();
}

void Controller::compute_layer(std::size_t job) {
  LayerMeasurement& layer = measurements_[job];
  const sc_core::sc_time layer_start = sc_core::sc_time_stamp();
  layer.start_cycle = events_.cycle_at(layer_start);
  layer.dvfs_switch_ps += dvfs_.switch_compute(jobs_[job].levels, jobs_[job].layer_index);
  for (bool first = true, last = false; !last; first = false) {
    LoadedStep loaded;
    wait_for_step(job, first, loaded, layer);
    if (runs_cycle_accurate(job)) {
      run_step_cycle_accurate(loaded, layer);
    } else {
      run_step(loaded, layer);
    }
    last = loaded.last_of_layer;
    loader_.step_done();
    events_.step_done(jobs_[job].layer_index, loaded.step.traffic.macs);
    if (events_.interrupt_requested()) {
      interrupted_at_layer_ = jobs_[job].layer_index;
      sc_core::sc_stop();
      return;
    }
  }
  drain(job, layer);
  layer.end_cycle = events_.cycle_at(sc_core::sc_time_stamp());
  layer.start_ps = picoseconds(layer_start);
  layer.end_ps = picoseconds(sc_core::sc_time_stamp());
  events_.trace_layer(jobs_[job].layer_index, layer_start, sc_core::sc_time_stamp(), layer.input_on_chip_bytes,
                      layer.output_kept_bytes);
  measure(layer);
  if (runs_cycle_accurate(job)) {
    if (check_outputs_) {
      layer.output_checked = true;
      layer.output_mismatches = values_->mismatches(job);
    }
    values_->release(job);
  }
  loader_.layer_done();
  events_.layer_done(jobs_[job].layer_index, layer.end_cycle);
}

// Takes the next step; the time the array waited for its data is a stall, and the step's DRAM reads are
// shown in it (else in the step itself).
void Controller::wait_for_step(std::size_t job, bool first, LoadedStep& loaded, LayerMeasurement& layer) {
  const sc_core::sc_time wait_start = sc_core::sc_time_stamp();
  loaded = loader_.next_step();
  if (loaded.ready_at > sc_core::sc_time_stamp()) wait(loaded.ready_at - sc_core::sc_time_stamp());  // ran ahead
  commands_.wait_until_issued(CommandQueue::Engine::kCompute);
  commands_.left(CommandQueue::Engine::kCompute, sc_core::sc_time_stamp());
  reads_to_show_ = loaded.dram_read_bytes;
  if (sc_core::sc_time_stamp() == wait_start) return;
  const std::uint64_t stalled = events_.cycle_at(sc_core::sc_time_stamp()) - events_.cycle_at(wait_start);
  layer.stall_cycles += stalled;
  if (first) layer.fill_stall_cycles = stalled;
  ActivityInterval stall;
  stall.stall = true;
  stall.dram_bytes = loaded.dram_read_bytes;
  if (events_.emit(jobs_[job].layer_index, wait_start, stall)) reads_to_show_ = 0;
  events_.trace(TraceEvent::Kind::kStall, jobs_[job].layer_index, wait_start, sc_core::sc_time_stamp());
}

void Controller::run_step(const LoadedStep& loaded, LayerMeasurement& layer) {
  const StepTraffic& t = loaded.step.traffic;
  const LayerJob& job = jobs_[loaded.job];
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  // The array's dataflow decides how its work overlaps the NoC and GLB traffic of the step.
  const std::uint64_t cycles = modules_.pe_array.execute(t, modules_.noc, modules_.glb);
  wait(modules_.clock.duration_of(cycles));
  ++layer.passes;
  layer.peak_active_pes = std::max(layer.peak_active_pes, t.active_pes);
  ActivityInterval busy;
  busy.active_pes = t.active_pes;
  busy.macs = t.nonzero_macs;
  busy.rf_accesses = t.rf.total();
  busy.noc_transfers = t.filter_bus_words + t.ifmap_bus_words + t.psum_bus_words + t.pe_hop_words;
  busy.glb_accesses = t.glb_reads + t.glb_writes;
  // The write-back is posted once the sequencer has issued its store: now, or after the step (a stall).
  sc_core::sc_time store_issued = sc_core::SC_ZERO_TIME;
  if (t.ofmap_dram_words > 0) {
    busy.dram_bytes = job.plan->encoding().ofmap_bytes(t.ofmap_dram_words);
    store_issued = commands_.issue(CommandQueue::Engine::kStore);
    if (store_issued <= sc_core::sc_time_stamp()) loader_.write(busy.dram_bytes, loaded.job);
  }
  record_on_chip(loaded, layer);
  const std::uint64_t late_write_bytes = store_issued > sc_core::sc_time_stamp() ? busy.dram_bytes : 0;
  busy.dram_bytes += reads_to_show_;
  events_.emit(job.layer_index, start, busy);
  events_.trace(TraceEvent::Kind::kPass, job.layer_index, start, sc_core::sc_time_stamp());
  if (late_write_bytes > 0) {  // a full store queue holds up the commands behind it
    stall_until(store_issued, loaded.job, layer);
    loader_.write(late_write_bytes, loaded.job);
  }
}

// The array idles until `until` (a stall, shown in the activity and the trace); the cycles it stalled.
std::uint64_t Controller::stall_until(const sc_core::sc_time& until, std::size_t job, LayerMeasurement& layer) {
  const sc_core::sc_time stall_start = sc_core::sc_time_stamp();
  if (until <= stall_start) return 0;
  wait(until - stall_start);
  const std::uint64_t stalled = events_.cycle_at(sc_core::sc_time_stamp()) - events_.cycle_at(stall_start);
  layer.stall_cycles += stalled;
  ActivityInterval stall;
  stall.stall = true;
  events_.emit(jobs_[job].layer_index, stall_start, stall);
  events_.trace(TraceEvent::Kind::kStall, jobs_[job].layer_index, stall_start, sc_core::sc_time_stamp());
  return stalled;
}

void Controller::run_step_cycle_accurate(const LoadedStep& loaded, LayerMeasurement& layer) {
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  const LayerJob& job = jobs_[loaded.job];
  const DramEncoding& encoding = job.plan->encoding();
  const std::uint64_t write_bytes = encoding.ofmap_bytes(loaded.step.traffic.ofmap_dram_words);
  // The array records its own activity cycle by cycle; the controller adds the stalls.
  const ActivitySink per_cycle =
      events_.wants_activity() ? ActivitySink([this](const ActivityInterval& cycles) { events_.emit_cycles(cycles); })
                               : ActivitySink();
  ICycleArray& array = *modules_.cycle_array;
  array.start(*job.plan, loaded.step, *values_->tensors(loaded.job), per_cycle, job.layer_index,
              write_bytes + reads_to_show_);
  wait(array.done_event());
  const MeasuredStep& measured = array.measured();
  ++layer.passes;
  layer.peak_active_pes = std::max(layer.peak_active_pes, measured.active_pes);
  if (measured.ofmap_words > 0) {
    stall_until(commands_.issue(CommandQueue::Engine::kStore), loaded.job, layer);
    loader_.write(encoding.ofmap_bytes(measured.ofmap_words), loaded.job);
  }
  record_on_chip(loaded, layer);
  events_.trace(TraceEvent::Kind::kPass, job.layer_index, start, sc_core::sc_time_stamp());
}

// What the GLB held of the step's tensors (glb.keep_activations, glb.keep_weights).
void Controller::record_on_chip(const LoadedStep& loaded, LayerMeasurement& layer) const {
  layer.input_on_chip_bytes += loaded.on_chip.input_on_chip_bytes;
  layer.weight_on_chip_bytes += loaded.on_chip.weight_on_chip_bytes;
  if (loaded.on_chip.output_kept_words > 0) {
    layer.output_kept_bytes += jobs_[loaded.job].plan->encoding().ofmap_bytes(loaded.on_chip.output_kept_words);
  }
}

// The ofmap write-back must land before the layer ends.
void Controller::drain(std::size_t job, LayerMeasurement& layer) {
  layer.drain_stall_cycles = stall_until(loader_.writes_complete_at(), job, layer);
}

// The layer's share of every registered counter: everything since the previous layer ended. The loader
// may already have read this layer's first tiles before it started; the array and its GLB and NoC count
// nothing between layers.
void Controller::measure(LayerMeasurement& layer) {
  modules_.dram.account_until(sc_core::sc_time_stamp());
  const CounterValues now = modules_.counters.snapshot();
  layer.counters = now - at_last_layer_end_;
  at_last_layer_end_ = now;
  const DramCounters& dram = modules_.dram.counters();
  if (dram.commands) {
    layer.dram_commands_at_start = dram_at_last_layer_end_.commands.value_or(DramCommandCounts{});
    layer.dram_commands_at_end = dram.commands;
  }
  const double busy_ps = static_cast<double>(dram.busy_ps - dram_at_last_layer_end_.busy_ps);
  layer.dram_busy_cycles =
      static_cast<std::uint64_t>(std::ceil(busy_ps / (modules_.clock.period().to_seconds() * 1e12)));
  dram_at_last_layer_end_ = dram;
  measure_busy(layer);
}

// Every resource's busy time during the layer, in picoseconds: cycles at the layer's clock (levels change
// only at a layer's start).
void Controller::measure_busy(LayerMeasurement& layer) {
  fill_drain_cycles_ += layer.fill_stall_cycles + layer.drain_stall_cycles;
  dvfs_switch_ps_ += layer.dvfs_switch_ps;
  const std::vector<std::uint64_t> now = modules_.busy.snapshot();
  const double period_ps = modules_.clock.period().to_seconds() * 1e12;
  layer.busy_ps.resize(now.size());
  for (std::size_t i = 0; i < now.size(); ++i) {
    const std::uint64_t busy = now[i] - busy_at_last_layer_end_[i];
    const bool cycles = modules_.busy.specs()[i].unit == BusyUnit::kComputeCycles;
    layer.busy_ps[i] = cycles ? static_cast<std::uint64_t>(std::llround(static_cast<double>(busy) * period_ps)) : busy;
  }
  busy_at_last_layer_end_ = now;
}

}  // namespace ergon
