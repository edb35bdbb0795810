#pragma once
// `pe_array.impl: row_stationary` at transaction level: rows x cols PEs with filter, ifmap and psum
// register files and one MAC unit each. A pass first fills the RFs (filters and ifmaps through the GLB
// read ports and the NoC buses), then computes: the busiest PE's MAC cycles plus the psum ripple up the
// tallest column, while psums stream between array and GLB.
#include "arch/accelerator_config.hpp"
#include "arch/pe_array/pe_array.hpp"

namespace ergon {

class RowStationaryArray : public IPeArray {
 public:
  RowStationaryArray(sc_core::sc_module_name name, const PeArrayConfig& config);
  std::int64_t pe_count() const override { return config_.rows * config_.cols; }
  std::uint64_t pass_cycles(const PassTraffic& traffic, const INoc& noc, const IGlobalBuffer& glb) const override;

 private:
  PeArrayConfig config_;
};

}  // namespace ergon
