#include "arch/dram/impl/banked_dram.hpp"

#include <algorithm>
#include <cmath>

namespace ergon {
namespace {

std::int64_t to_ps(const sc_core::sc_time& time) {
  return static_cast<std::int64_t>(std::llround(time.to_seconds() * 1e12));
}

sc_core::sc_time from_ps(std::int64_t ps) {
  return sc_core::sc_time(static_cast<double>(ps), sc_core::SC_PS);
}

}  // namespace

BankedDram::BankedDram(sc_core::sc_module_name name, const DramConfig& config, const DramSpec& spec)
    : IDram(name),
      socket_("socket"),
      scheduler_(spec, config.address_mapping,
                 config.page_policy == "closed" ? PagePolicy::kClosed : PagePolicy::kOpen),
      nominal_bandwidth_gbps_(spec.peak_bandwidth_gbps()),
      queue_depth_(static_cast<std::size_t>(config.request_queue_depth)) {
  socket_.register_b_transport(this, &BankedDram::b_transport);
  counters_.has_bank_model = true;
}

void BankedDram::change_bandwidth(double bandwidth_gbps, const sc_core::sc_time& switch_time) {
  // A bandwidth level is a data rate: the clock period scales inversely.
  scheduler_.set_clock_period(scheduler_.spec().timing.tck_ns * nominal_bandwidth_gbps_ / bandwidth_gbps);
  switch_until_ps_ = std::max(to_ps(last_completion_), to_ps(sc_core::sc_time_stamp())) + to_ps(switch_time);
}

void BankedDram::account_until(const sc_core::sc_time& now) {
  scheduler_.advance_to(to_ps(now));
  const DramCommandCounts& c = scheduler_.counts();
  DramBankStats& bank = counters_.bank;
  bank.row_hits = c.row_hits;
  bank.row_misses = c.row_misses;
  bank.row_conflicts = c.row_conflicts;
  bank.refresh_cycles = c.refreshes * static_cast<std::uint64_t>(scheduler_.spec().timing.rfc);
  const DramEnergyByKind energy = dram_energy(scheduler_.spec(), c);
  bank.activate_pj = energy.activate_pj;
  bank.read_pj = energy.read_pj;
  bank.write_pj = energy.write_pj;
  bank.refresh_pj = energy.refresh_pj;
  bank.background_pj = energy.background_pj;
}

void BankedDram::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  std::int64_t arrival = std::max(to_ps(sc_core::sc_time_stamp() + delay), switch_until_ps_);
  while (!completions_.empty() && completions_.front() <= arrival) completions_.pop_front();
  if (completions_.size() >= queue_depth_) {  // wait for a slot
    ++counters_.queue_full_waits;
    arrival = completions_[completions_.size() - queue_depth_];
    while (!completions_.empty() && completions_.front() <= arrival) completions_.pop_front();
  }
  const std::uint64_t bytes = payload.get_data_length();
  const std::uint64_t bursts_before = scheduler_.counts().reads + scheduler_.counts().writes;
  const std::int64_t completion = scheduler_.serve(payload.get_address(), bytes, payload.is_write(), arrival);
  const std::uint64_t bursts = scheduler_.counts().reads + scheduler_.counts().writes - bursts_before;
  counters_.busy_ps += bursts * static_cast<std::uint64_t>(scheduler_.burst_ps());
  completions_.insert(std::upper_bound(completions_.begin(), completions_.end(), completion), completion);
  last_completion_ = std::max(last_completion_, from_ps(completion));
  if (payload.is_read()) {
    counters_.read_bytes += bytes;
    ++counters_.read_requests;
  } else {
    counters_.write_bytes += bytes;
    ++counters_.write_requests;
  }
  delay = from_ps(completion) - sc_core::sc_time_stamp();
  payload.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace ergon
