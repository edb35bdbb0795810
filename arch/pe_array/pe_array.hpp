#pragma once
// The PE array at transaction level: how long a step takes and what it did. Implementations:
// arch/pe_array/impl/ (the cycle-accurate counterpart is ICycleArray), one per dataflow.
#include <cstdint>
#include <systemc>

#include "arch/glb/global_buffer.hpp"
#include "arch/noc/noc.hpp"
#include "dataflow/pass_traffic.hpp"

namespace ergon {

struct PeArrayCounters {
  std::uint64_t macs = 0;
  std::uint64_t nonzero_macs = 0;
  std::uint64_t rf_accesses = 0;
  std::uint64_t pe_busy_cycles = 0;  // PE-cycles spent on MACs: one MAC per PE per cycle
};

class IPeArray : public sc_core::sc_module {
 public:
  using sc_core::sc_module::sc_module;
  virtual std::int64_t pe_count() const = 0;
  // Cycles a step takes, given the NoC and GLB that feed the array.
  virtual std::uint64_t pass_cycles(const PassTraffic& traffic, const INoc& noc, const IGlobalBuffer& glb) const = 0;
  // Runs a step at transaction level: returns its cycles; the GLB, the NoC and the array count its traffic.
  std::uint64_t execute(const PassTraffic& t, INoc& noc, IGlobalBuffer& glb) {
    glb.record(t.glb_reads, t.glb_writes);
    noc.record(t.filter_bus_words, t.ifmap_bus_words, t.psum_bus_words, t.inter_pe_psum_words);
    record(t.macs, t.nonzero_macs, t.rf_accesses);
    return pass_cycles(t, noc, glb);
  }
  // Counting is the same for every array: one MAC occupies one PE for one cycle.
  void record(std::uint64_t macs, std::uint64_t nonzero_macs, std::uint64_t rf_accesses) {
    counters_.macs += macs;
    counters_.nonzero_macs += nonzero_macs;
    counters_.rf_accesses += rf_accesses;
    counters_.pe_busy_cycles += macs;
  }
  const PeArrayCounters& counters() const { return counters_; }

 private:
  PeArrayCounters counters_;
};

}  // namespace ergon
