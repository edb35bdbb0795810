#include "arch/dram/impl/banked_dram.hpp"

#include <algorithm>
#include <cmath>

#include "arch/components.hpp"
#include "arch/dram/banked/dram_specs.hpp"
#include "arch/simulated_time.hpp"

namespace ergon {
namespace {

std::int64_t to_ps(const sc_core::sc_time& time) {
  return static_cast<std::int64_t>(std::llround(time.to_seconds() * 1e12));
}

// The bank scheduler keeps time as signed 64-bit picoseconds: half of SystemC's range (about 106 days).
constexpr double kBankSchedulerLimitPs = 9223372036854775807.0;  // 2^63 - 1 ps

// Refuses a request whose start, plus its bytes at the bus's peak rate, would pass the scheduler's range.
void check_bank_scheduler_time(const sc_core::sc_time& start, std::uint64_t bytes, double bandwidth_gbps) {
  const double transfer_ps = static_cast<double>(bytes) * 1e3 / bandwidth_gbps;
  if (static_cast<double>(start.value()) + transfer_ps < kBankSchedulerLimitPs) return;
  throw_simulated_time_overflow(start, transfer_ps,
                                fmt::format("a DRAM transfer of {} bytes on the bank-level DRAM (dram.impl: banked, "
                                            "whose scheduler counts time up to 2^63 ps)",
                                            bytes));
}

sc_core::sc_time from_ps(std::int64_t ps) {
  return sc_core::sc_time(static_cast<double>(ps), sc_core::SC_PS);
}

enum BankedStatistic : std::size_t { kRowHits, kRowMisses, kRowConflicts, kRefreshCycles };

}  // namespace

std::vector<CounterSpec> banked_dram_statistics() {
  return {{"dram.row_hit", "bursts", "dram_row_hits", "bursts to an open row", false},
          {"dram.row_miss", "bursts", "dram_row_misses", "bursts to a precharged bank", false},
          {"dram.row_conflict", "bursts", "dram_row_conflicts", "bursts that closed another row", false},
          {"dram.refresh_cycle", "DRAM cycles", "dram_refresh_cycles",
           "DRAM clock cycles of rank-time blocked by refresh", false}};
}

BankedDram::BankedDram(sc_core::sc_module_name name, const DramConfig& config, const DramSpec& spec)
    : IDram(name),
      socket_("socket"),
      scheduler_(spec, config.address_mapping, config.page_policy),
      nominal_bandwidth_gbps_(spec.peak_bandwidth_gbps()),
      queue_(static_cast<std::size_t>(config.request_queue_depth)) {
  socket_.register_b_transport(this, &BankedDram::b_transport);
  counters_.statistic_specs = banked_dram_statistics();
  counters_.statistics.assign(counters_.statistic_specs.size(), 0);
  counters_.commands = DramCommandCounts{};
}

void BankedDram::change_bandwidth(double bandwidth_gbps, const sc_core::sc_time& switch_time) {
  // A bandwidth level is a data rate: the clock period scales inversely.
  scheduler_.set_clock_period(scheduler_.spec().timing.tck_ns * nominal_bandwidth_gbps_ / bandwidth_gbps);
  switch_until_ps_ = std::max(to_ps(last_completion_), to_ps(sc_core::sc_time_stamp())) + to_ps(switch_time);
}

void BankedDram::account_until(const sc_core::sc_time& now) {
  scheduler_.advance_to(to_ps(now));
  const DramCommandCounts& c = scheduler_.counts();
  std::vector<std::uint64_t>& s = counters_.statistics;
  s[kRowHits] = c.row_hits;
  s[kRowMisses] = c.row_misses;
  s[kRowConflicts] = c.row_conflicts;
  s[kRefreshCycles] = c.refreshes * static_cast<std::uint64_t>(scheduler_.spec().timing.rfc);
  counters_.commands = c;
}

void BankedDram::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  const sc_core::sc_time admitted =
      queue_.admit(std::max(sc_core::sc_time_stamp() + delay, from_ps(switch_until_ps_)), counters_);
  check_bank_scheduler_time(admitted, payload.get_data_length(), nominal_bandwidth_gbps_);
  const std::int64_t arrival = to_ps(admitted);
  const std::int64_t completion =
      scheduler_.serve(payload.get_address(), payload.get_data_length(), payload.is_write(), arrival);
  // The channels transfer side by side: the bus time per channel, so that it never exceeds the time passed.
  counters_.busy_ps =
      static_cast<std::uint64_t>(scheduler_.counts().read_burst_ps + scheduler_.counts().write_burst_ps) /
      static_cast<std::uint64_t>(scheduler_.spec().organisation.channels);
  queue_.add(from_ps(completion));
  last_completion_ = std::max(last_completion_, from_ps(completion));
  count_request(payload, counters_);
  delay = from_ps(completion) - sc_core::sc_time_stamp();
  payload.set_response_status(tlm::TLM_OK_RESPONSE);
}

// The config loader has checked that the preset has a bank-level description.
ERGON_REGISTER(DramImpl, "banked",
               DramImpl{[](const DramConfig& config) -> std::unique_ptr<IDram> {
                          return std::make_unique<BankedDram>("dram", config, *find_dram_spec(config.preset));
                        },
                        banked_dram_statistics(), true})

}  // namespace ergon
