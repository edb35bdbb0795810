#pragma once
// The controller runs a network's layers on the modules. Its loader (a child module that owns the DRAM
// socket) fetches each step's data while the compute thread here runs the previous step on the array: at
// transaction level the array times the step from its traffic, at cycle fidelity the dataflow's
// cycle-accurate array runs it on real values. The array stalls when the next step's data is late; a layer
// ends when its ofmap write-back has drained. Before each layer the DVFS switch moves the domains to the
// layer's levels; at cycle fidelity each layer's outputs are checked against the reference computation.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "arch/clock.hpp"
#include "arch/controller/command_queue.hpp"
#include "arch/controller/dvfs_switch.hpp"
#include "arch/controller/layer_job.hpp"
#include "arch/controller/layer_values.hpp"
#include "arch/controller/loader.hpp"
#include "arch/controller/run_events.hpp"
#include "arch/dram/dram.hpp"
#include "arch/glb/global_buffer.hpp"
#include "arch/noc/noc.hpp"
#include "arch/pe_array/cycle_array.hpp"
#include "arch/pe_array/pe_array.hpp"

namespace ergon {

// The modules a controller drives. `cycle_array` null: transaction level.
struct ControlledModules {
  ClockDomain& clock;
  IGlobalBuffer& glb;
  INoc& noc;
  IPeArray& pe_array;
  IDram& dram;
  ICycleArray* cycle_array = nullptr;
  const CounterRegistry& counters;  // every module's counters, registered
  BusyRegistry& busy;               // every module's busy time, registered; the controller adds its own
};

class Controller : public sc_core::sc_module {
 public:
  Controller(sc_core::sc_module_name name, ControlledModules modules, const DvfsSetup& dvfs,
             const CommandsConfig& commands, std::vector<LayerJob> jobs, RunObservers observers,
             bool check_outputs = true);

  tlm_utils::simple_initiator_socket<Loader>& dram_socket() { return loader_.dram_socket; }
  const std::vector<LayerMeasurement>& measurements() const { return measurements_; }

  struct Failure {
    std::size_t layer_index = 0;
    std::string message;
  };
  // Set when a layer could not be simulated (e.g. out of memory for its tensors); the run stopped there.
  const std::optional<Failure>& failure() const { return failure_; }
  // Set when the observers' interrupt check asked the run to stop; it stopped after a step of this layer.
  std::optional<std::size_t> interrupted_at_layer() const { return interrupted_at_layer_; }

 private:
  void compute_thread();
  void compute_layer(std::size_t job);
  void record_failure(std::size_t job, const std::string& message);
  void wait_for_step(std::size_t job, bool first, LoadedStep& loaded, LayerMeasurement& layer);
  void run_step(const LoadedStep& loaded, LayerMeasurement& layer);
  void run_step_cycle_accurate(const LoadedStep& loaded, LayerMeasurement& layer);
  void record_on_chip(const LoadedStep& loaded, LayerMeasurement& layer) const;
  std::uint64_t stall_until(const sc_core::sc_time& until, std::size_t job, LayerMeasurement& layer);
  void drain(std::size_t job, LayerMeasurement& layer);
  void measure(LayerMeasurement& layer);
  void measure_busy(LayerMeasurement& layer);
  bool runs_cycle_accurate(std::size_t job) const;

  ControlledModules modules_;
  std::vector<LayerJob> jobs_;
  RunEvents events_;
  DvfsSwitch dvfs_;
  std::unique_ptr<LayerValues> values_;  // cycle fidelity
  bool check_outputs_;
  CommandQueue commands_;
  Loader loader_;
  std::vector<LayerMeasurement> measurements_;
  std::size_t computing_job_ = 0;
  std::uint64_t reads_to_show_ = 0;  // the current step's DRAM reads not yet shown in a stall
  std::optional<Failure> failure_;
  std::optional<std::size_t> interrupted_at_layer_;  // a layer index
  DramCounters dram_at_last_layer_end_;
  CounterValues at_last_layer_end_;
  // The controller's own busy time (fill_drain, dvfs_switch) and every resource's at the last layer's end.
  std::uint64_t fill_drain_cycles_ = 0;
  std::uint64_t dvfs_switch_ps_ = 0;
  std::vector<std::uint64_t> busy_at_last_layer_end_;
};

}  // namespace ergon
