#pragma once
// How a layer's steps overlap their DRAM traffic, as the controller and its loader run them
// (arch/controller): the cost models' clock, walked step by step in execution order.
//
// One DRAM bus serves every transfer in the order they are issued, each taking bytes / bandwidth, its data
// arriving one access latency after its last byte. The loader prepares one step at a time: it writes out the
// psums the step evicts, then fetches the step's reads; double-buffered, from the moment the previous step
// starts computing (the next step's buffer is free then), single-buffered only once the previous step has
// ended. A step starts when its data has arrived and the previous step has ended, and writes its finished
// outputs back when it ends. The layer ends when its last step has ended and its last write-back has landed.
#include <cstdint>
#include <deque>

#include "dataflows/dram_encoding.hpp"
#include "dataflows/step_traffic.hpp"

namespace ergon {

struct PipelineTiming {
  double dram_bytes_per_cycle = 8;
  double dram_latency_cycles = 20;
  bool double_buffered = true;
};

// One step's DRAM traffic.
struct StepDram {
  std::uint64_t evicted_bytes = 0;  // written before its fetch (spilled psums)
  std::uint64_t read_bytes = 0;     // fetched before it starts
  std::uint64_t written_bytes = 0;  // written back when it ends (finished outputs)
};

// A step's traffic in DRAM bytes, as the loader moves it: spilled psums raw, the ifmap in the layer's
// encoding (coded at its expected density where coded), finished outputs in theirs.
StepDram step_dram(const StepTraffic& traffic, const DramEncoding& encoding);

class StepPipeline {
 public:
  explicit StepPipeline(const PipelineTiming& timing) : timing_(timing) {}

  // The next step in execution order, `array_cycles` long once its data is in.
  void add(const StepDram& dram, double array_cycles);
  // From the layer's start (its first fetch) to its end.
  double cycles();

 private:
  struct Write {
    double issued_at;
    std::uint64_t bytes;
  };
  // Puts a transfer on the bus at `time` (after the write-backs issued before it); returns when its data has
  // arrived (or landed).
  double transfer(double time, std::uint64_t bytes);
  void issue_writes_until(double time);

  PipelineTiming timing_;
  bool first_ = true;
  double bus_free_at_ = 0;
  double fetched_at_ = 0;                 // the previous step's data arrived (the loader moves on to the next step)
  double started_at_ = 0, ended_at_ = 0;  // the previous step
  double writes_landed_at_ = 0;
  std::deque<Write> writes_;  // issued at a step's end, not yet on the bus
};

}  // namespace ergon
