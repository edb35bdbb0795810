#pragma once
// The row-stationary controller executes layer schedules with double buffering: a loader thread
// fetches the next pass's filters and ifmaps from DRAM (over TLM) while the compute thread feeds the
// current pass through the NoC into the PE array. The array stalls when the next pass's data is late;
// a layer ends when its ofmap write-back has drained.
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <systemc>
#include <vector>

#include "arch/clock.hpp"
#include "arch/controller/activity.hpp"
#include "arch/controller/layer_job.hpp"
#include "arch/dram/dram.hpp"
#include "arch/glb/global_buffer.hpp"
#include "arch/noc/noc.hpp"
#include "arch/pe_array/cycle_pe_array.hpp"
#include "arch/pe_array/cycle_systolic_array.hpp"
#include "arch/pe_array/pe_array.hpp"
#include "dataflow/row_stationary/row_stationary_staging.hpp"

namespace ergon {

// The levels the domains start at (the modules are built at them), and how long each domain stalls
// while its level changes.
struct DvfsSetup {
  OperatingLevels initial;
  sc_core::sc_time compute_switch = sc_core::SC_ZERO_TIME;
  sc_core::sc_time memory_switch = sc_core::SC_ZERO_TIME;
};

class Controller : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Controller> dram_socket;

  // With `cycle_array`, passes run cycle by cycle on real values (cycle fidelity); without, each pass
  // takes the duration the modules compute from its traffic (transaction level). Before each layer the
  // controller moves the compute clock and the DRAM to the layer's levels (DVFS).
  Controller(sc_core::sc_module_name name, ClockDomain& clock, const DvfsSetup& dvfs, IGlobalBuffer& glb, INoc& noc,
             IPeArray& pe_array, IDram& dram, std::vector<LayerJob> jobs, RunObservers observers,
             ICyclePeArray* cycle_array = nullptr, bool check_outputs = true,
             ICycleSystolicArray* systolic_cycle_array = nullptr);

  const std::vector<LayerMeasurement>& measurements() const { return measurements_; }

  struct Failure {
    std::size_t layer_index = 0;
    std::string message;
  };
  // Set when a layer could not be simulated (e.g. out of memory for its tensors); the run stopped there.
  const std::optional<Failure>& failure() const { return failure_; }

 private:
  struct PassWork {
    std::size_t job = 0;
    RowStationaryPass pass;
    PassTraffic traffic;
    std::uint64_t dram_read_bytes = 0;
    bool last_of_layer = false;
    std::shared_ptr<const StagedPass> staged;  // cycle fidelity: the values staged in the GLB
    std::optional<SystolicFold> fold;          // systolic layers
    friend std::ostream& operator<<(std::ostream& out, const PassWork& work) {  // sc_fifo prints its contents
      return out << "pass of job " << work.job;
    }
  };

  void load_thread();
  void compute_thread();
  void load_layers();
  void compute_layers();
  void record_failure(std::size_t job, const std::string& message);
  void load_schedule(std::size_t job_index);
  void load_elementwise(std::size_t job_index);
  void load_systolic(std::size_t job_index);
  void queue_pass(const PassWork& work, bool double_buffered);
  void run_pass(const PassWork& work, LayerMeasurement& layer, std::uint64_t read_bytes_to_show);
  void run_pass_cycle_accurate(const PassWork& work, LayerMeasurement& layer, std::uint64_t read_bytes_to_show);
  void run_fold_cycle_accurate(const PassWork& work, LayerMeasurement& layer, std::uint64_t read_bytes_to_show);
  void record_fold(const PassWork& work, const MeasuredPass& measured, LayerMeasurement& layer,
                   const sc_core::sc_time& start, std::uint64_t read_bytes_to_show);
  const LoopNest& job_nest(std::size_t job) const;
  LayerTensors& job_tensors(std::size_t job);
  void stage_values(PassWork& work);
  void check_output(std::size_t job, LayerMeasurement& layer);
  void post_ofmap(std::uint64_t words, std::size_t job, ActivityInterval& activity);
  void finish_layer(std::size_t job);
  void switch_compute_level(std::size_t job, LayerMeasurement& layer);
  void switch_memory_level(std::size_t job);
  sc_core::sc_time dram_transfer(tlm::tlm_command command, std::uint64_t bytes, std::size_t job);
  std::uint64_t cycle_at(const sc_core::sc_time& time) const;
  bool emit(std::size_t job, const sc_core::sc_time& start, const ActivityInterval& counts);  // false: not shown
  void trace(TraceEvent::Kind kind, std::size_t job, const sc_core::sc_time& start, const sc_core::sc_time& end,
             std::uint64_t bytes = 0);

  ClockDomain& clock_;
  DvfsSetup dvfs_;
  OperatingLevels compute_level_;  // in force
  double dram_bandwidth_gbps_ = 0;
  IGlobalBuffer& glb_;
  INoc& noc_;
  IPeArray& pe_array_;
  IDram& dram_;
  std::vector<LayerJob> jobs_;
  RunObservers observers_;
  ICyclePeArray* cycle_array_;
  ICycleSystolicArray* systolic_cycle_array_;
  bool check_outputs_;
  std::vector<std::shared_ptr<LayerTensors>> tensors_;    // cycle fidelity, alive while the layer runs
  sc_core::sc_fifo<PassWork> next_pass_{"next_pass", 1};  // the second buffer of double buffering
  std::size_t passes_in_flight_ = 0;                      // queued or computing
  sc_core::sc_event pass_done_event_;
  std::size_t layers_done_ = 0;
  sc_core::sc_event layer_done_event_;
  std::vector<LayerMeasurement> measurements_;
  std::size_t loading_job_ = 0;
  std::size_t computing_job_ = 0;
  std::optional<Failure> failure_;
  DramCounters dram_at_last_layer_end_;
  unsigned char stream_window_[64] = {};
};

}  // namespace ergon
