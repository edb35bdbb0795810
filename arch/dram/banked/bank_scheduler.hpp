#pragma once
// The command timing of a bank-level DRAM: every column access is placed at the earliest time the JEDEC
// constraints allow (tRCD, tRP, tRAS, tRRD, tFAW, tCCD, tWR, tWTR, tRTP, the data bus, and all-bank refresh
// every tREFI for tRFC), given each bank's open row. Times are integer picoseconds.
//
// Scheduling: a request's accesses are served first-ready first-come-first-served (FR-FCFS) within the
// request: accesses to rows already open go first, then the others in address order; requests are served
// in arrival order (the data bus is not back-filled). Page policy: open (a row stays open until another row
// of its bank or a refresh needs the bank) or closed (each access precharges its row at once).
#include <cstdint>
#include <vector>

#include "arch/dram/banked/address_mapping.hpp"
#include "arch/dram/banked/dram_spec.hpp"
#include "arch/dram/banked/page_policy.hpp"
#include "arch/dram/dram.hpp"

namespace ergon {

class BankScheduler {
 public:
  BankScheduler(const DramSpec& spec, const std::string& mapping, PagePolicy policy);

  struct Access {
    std::uint64_t address;
    bool is_write;
  };
  // Serves the column accesses covering [address, address + bytes) arriving at `arrival_ps`; returns when
  // the last one's data has crossed the bus.
  std::int64_t serve(std::uint64_t address, std::uint64_t bytes, bool is_write, std::int64_t arrival_ps);
  // Counts refreshes and standby time up to `end_ps` (call once the run is over; idempotent for one time).
  void advance_to(std::int64_t end_ps);
  // The clock changes (memory-side DVFS): bursts and clock-defined gaps scale with tCK; the analogue
  // constraints (tRCD, tRP, tRAS, tRFC, ...) keep their nanoseconds.
  void set_clock_period(double tck_ns);

  const DramCommandCounts& counts() const { return counts_; }
  const DramSpec& spec() const { return spec_; }

 private:
  struct Bank {
    std::int64_t open_row = -1;
    std::int64_t opened_at = 0;
    std::int64_t open_counted_until = 0;  // open time up to here is in counts_.clocked_bank_open_ps
    std::int64_t next_activate = 0, next_read = 0, next_write = 0, next_precharge = 0;
  };
  struct Rank {
    std::vector<Bank> banks;
    std::int64_t recent_activates[4] = {-1'000'000'000, -1'000'000'000, -1'000'000'000, -1'000'000'000};
    int oldest_activate = 0;  // index into recent_activates
    std::int64_t last_activate = -1'000'000'000;
    int last_activate_group = -1;
    std::int64_t next_refresh = 0;
    std::int64_t observed_until = 0;
  };
  struct Channel {
    std::vector<Rank> ranks;
    std::int64_t bus_free = 0;                  // end of the last burst on the data bus
    std::int64_t last_column = -1'000'000'000;  // time of the last column command
    int last_column_group = -1;
    int last_column_rank = -1;
    bool last_was_write = false;
    std::int64_t last_write_data_end = -1'000'000'000;
    int last_write_group = -1;
  };
  struct Constraints {  // in ps
    std::int64_t cl, cwl, rcd, rp, ras, rrd_s, rrd_l, faw, ccd_s, ccd_l, wr, wtr_s, wtr_l, rtp, refi, rfc, rtw;
  };

  // A controller's queue holds this many column accesses for FR-FCFS to choose from.
  static constexpr std::size_t kSchedulingWindow = 32;

  Bank& bank_at(const DramLocation& where);
  std::int64_t serve_access(const DramLocation& where, bool is_write, std::int64_t arrival);
  std::int64_t column_command_time(const Channel& channel, const Bank& bank, const DramLocation& where, bool is_write,
                                   std::int64_t arrival) const;
  void open_row(Rank& rank, Bank& bank, const DramLocation& where, std::int64_t earliest);
  void close_row(Bank& bank, std::int64_t at);
  void refresh_until(Rank& rank, std::int64_t time);
  void count_open_time(Bank& bank, std::int64_t until);
  void compute_constraints();

  DramSpec spec_;
  DramAddressMapping mapping_;
  PagePolicy policy_;
  double nominal_tck_ns_;
  double tck_ns_;
  double clock_scale_ = 1;  // nominal_tck_ns_ / tck_ns_
  std::int64_t burst_ps_ = 0;
  Constraints t_{};
  std::vector<Channel> channels_;
  DramCommandCounts counts_;
  DramLocation window_[kSchedulingWindow];
};

}  // namespace ergon
