#pragma once
// The PE array of a row-stationary accelerator: rows x cols PEs, each with filter, ifmap and psum
// register files and one MAC unit. At transaction level a pass takes the busiest PE's MAC cycles plus
// the psum ripple up the tallest column.
#include <cstdint>
#include <systemc>

#include "arch/accelerator_config.hpp"
#include "dataflow/row_stationary/pass_traffic.hpp"

namespace ergon {

struct PeArrayCounters {
  std::uint64_t macs = 0;
  std::uint64_t nonzero_macs = 0;
  std::uint64_t rf_accesses = 0;
  std::uint64_t pe_busy_cycles = 0;  // PE-cycles spent on MACs: one MAC per PE per cycle
};

class PeArray : public sc_core::sc_module {
 public:
  PeArray(sc_core::sc_module_name name, const PeArrayConfig& config);

  std::int64_t pe_count() const { return config_.rows * config_.cols; }
  std::uint64_t pass_cycles(const PassTraffic& traffic) const;
  void record(std::uint64_t macs, std::uint64_t nonzero_macs, std::uint64_t rf_accesses);
  const PeArrayCounters& counters() const { return counters_; }

 private:
  PeArrayConfig config_;
  PeArrayCounters counters_;
};

}  // namespace ergon
