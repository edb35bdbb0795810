#pragma once
// `pe_array.impl: row_stationary` at transaction level: rows x cols PEs with filter, ifmap and psum
// register files and one MAC unit each. A pass preloads filters and the first ifmap window, then streams
// ifmap columns while the PEs compute, as far ahead as the ifmap RF holds (dataflows/row_stationary/pass_timing.hpp).
#include "arch/accelerator_config.hpp"
#include "arch/pe_array/pe_array.hpp"
#include "dataflows/row_stationary/pass_timing.hpp"

namespace ergon {

class RowStationaryArray : public IPeArray {
 public:
  RowStationaryArray(sc_core::sc_module_name name, const AcceleratorConfig& config);
  std::int64_t pe_count() const override { return config_.rows * config_.cols; }
  std::uint64_t pass_cycles(const PassTraffic& traffic, const INoc& noc, const IGlobalBuffer& glb) const override;
  void occupy(const PassTraffic& traffic, INoc& noc, IGlobalBuffer& glb) override;

 private:
  PeArrayConfig config_;
  ArrayTiming timing_;  // the mapper's, from the same config
};

}  // namespace ergon
