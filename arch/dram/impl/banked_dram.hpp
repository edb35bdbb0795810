#pragma once
// `dram.impl: banked`: channels, ranks, bank groups, banks and rows with the JEDEC timing of the preset
// (arch/dram/banked/). Each addressed burst is split into column accesses that the bank scheduler places
// under the timing constraints; the burst completes when its last access's data has crossed the bus.
// It reports its commands and standby time; power/dram/ prices them from the preset's IDD currents
// (DRAMPower's method), not with a per-bit figure.
#include <tlm_utils/simple_target_socket.h>

#include "arch/accelerator_config.hpp"
#include "arch/dram/banked/bank_scheduler.hpp"
#include "arch/dram/dram.hpp"
#include "arch/dram/request_queue.hpp"

namespace ergon {

// Its statistics beyond bytes: row-buffer outcomes and refresh, in the order counters_.statistics holds them.
std::vector<CounterSpec> banked_dram_statistics();

class BankedDram : public IDram {
 public:
  BankedDram(sc_core::sc_module_name name, const DramConfig& config, const DramSpec& spec);
  tlm::tlm_target_socket<>& target_socket() override { return socket_; }
  const DramCounters& counters() const override { return counters_; }
  void change_bandwidth(double bandwidth_gbps, const sc_core::sc_time& switch_time) override;
  void account_until(const sc_core::sc_time& now) override;

 private:
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);

  tlm_utils::simple_target_socket<BankedDram> socket_;
  BankScheduler scheduler_;
  double nominal_bandwidth_gbps_;
  RequestQueue queue_;
  std::int64_t switch_until_ps_ = 0;  // a memory-domain level change stops the DRAM until then
  sc_core::sc_time last_completion_ = sc_core::SC_ZERO_TIME;
  DramCounters counters_;
};

}  // namespace ergon
