#include "arch/dram/banked/bank_scheduler.hpp"

#include <algorithm>
#include <cmath>

namespace ergon {
namespace {

std::int64_t ps_of(double ns) {
  return static_cast<std::int64_t>(std::llround(ns * 1000.0));
}

}  // namespace

BankScheduler::BankScheduler(const DramSpec& spec, const std::string& mapping, PagePolicy policy)
    : spec_(spec),
      mapping_(mapping, spec.organisation),
      policy_(policy),
      nominal_tck_ns_(spec.timing.tck_ns),
      tck_ns_(spec.timing.tck_ns) {
  const DramOrganisation& o = spec.organisation;
  compute_constraints();
  channels_.resize(static_cast<std::size_t>(o.channels));
  for (Channel& channel : channels_) {
    channel.ranks.resize(static_cast<std::size_t>(o.ranks));
    for (Rank& rank : channel.ranks) {
      rank.banks.resize(static_cast<std::size_t>(o.banks_per_rank()));
      rank.next_refresh = t_.refi;
    }
  }
}

void BankScheduler::compute_constraints() {
  const DramTiming& c = spec_.timing;
  // Analogue constraints keep their nominal nanoseconds; the burst and the column-to-column gaps are clock
  // cycles and follow the clock.
  const auto analogue = [&](int cycles) { return ps_of(cycles * nominal_tck_ns_); };
  const auto clocked = [&](double cycles) { return ps_of(cycles * tck_ns_); };
  burst_ps_ = clocked(static_cast<double>(spec_.organisation.burst_length) / c.transfers_per_clock);
  t_.cl = analogue(c.cl);
  t_.cwl = analogue(c.cwl);
  t_.rcd = analogue(c.rcd);
  t_.rp = analogue(c.rp);
  t_.ras = analogue(c.ras);
  t_.rrd_s = analogue(c.rrd_s);
  t_.rrd_l = analogue(c.rrd_l);
  t_.faw = analogue(c.faw);
  t_.ccd_s = std::max(clocked(c.ccd_s), burst_ps_);
  t_.ccd_l = std::max(clocked(c.ccd_l), burst_ps_);
  t_.wr = analogue(c.wr);
  t_.wtr_s = analogue(c.wtr_s);
  t_.wtr_l = analogue(c.wtr_l);
  t_.rtp = analogue(c.rtp);
  t_.refi = analogue(c.refi);
  t_.rfc = analogue(c.rfc);
  // Read to write on one channel: the read's data must leave the bus before the write's arrives, with two
  // cycles of turnaround (JESD79-4's tRTW = CL + BL/2 + 2 - CWL).
  t_.rtw = std::max<std::int64_t>(0, t_.cl + burst_ps_ + clocked(2) - t_.cwl);
}

void BankScheduler::set_clock_period(double tck_ns) {
  tck_ns_ = tck_ns;
  clock_scale_ = nominal_tck_ns_ / tck_ns;
  compute_constraints();
}

void BankScheduler::count_open_time(Bank& bank, std::int64_t until) {
  const std::int64_t from = std::max(bank.opened_at, bank.open_counted_until);
  if (until > from) counts_.clocked_bank_open_ps += static_cast<double>(until - from) * clock_scale_;
  bank.open_counted_until = std::max(bank.open_counted_until, until);
}

void BankScheduler::close_row(Bank& bank, std::int64_t at) {
  bank.open_row = -1;
  bank.next_activate = std::max(bank.next_activate, at + t_.rp);
  count_open_time(bank, at);
}

void BankScheduler::refresh_until(Rank& rank, std::int64_t time) {
  while (rank.next_refresh <= time) {
    // All banks are precharged (each once its own constraints allow), then the rank refreshes for tRFC.
    std::int64_t start = rank.next_refresh;
    for (Bank& bank : rank.banks) {
      if (bank.open_row >= 0) close_row(bank, std::max(rank.next_refresh, bank.next_precharge));
      start = std::max(start, bank.next_activate);
    }
    for (Bank& bank : rank.banks) bank.next_activate = start + t_.rfc;
    ++counts_.refreshes;
    rank.next_refresh += t_.refi;
  }
}

void BankScheduler::open_row(Rank& rank, Bank& bank, const DramLocation& where, std::int64_t earliest) {
  const bool same_group = rank.last_activate_group == where.bank_group;
  std::int64_t activate =
      std::max({earliest, bank.next_activate, rank.last_activate + (same_group ? t_.rrd_l : t_.rrd_s),
                rank.recent_activates[rank.oldest_activate] + t_.faw});
  rank.recent_activates[rank.oldest_activate] = activate;
  rank.oldest_activate = (rank.oldest_activate + 1) % 4;
  rank.last_activate = activate;
  rank.last_activate_group = where.bank_group;
  bank.open_row = where.row;
  bank.opened_at = activate;
  bank.open_counted_until = activate;
  bank.next_read = bank.next_write = activate + t_.rcd;
  bank.next_precharge = activate + t_.ras;
  ++counts_.activates;
}

std::int64_t BankScheduler::column_command_time(const Channel& channel, const Bank& bank, const DramLocation& where,
                                                bool is_write, std::int64_t arrival) const {
  const bool same_group = channel.last_column_rank == where.rank && channel.last_column_group == where.bank_group;
  std::int64_t command = std::max(
      {arrival, is_write ? bank.next_write : bank.next_read, channel.last_column + (same_group ? t_.ccd_l : t_.ccd_s)});
  if (is_write && !channel.last_was_write) command = std::max(command, channel.last_column + t_.rtw);
  if (!is_write) {
    const bool after_write_same_group = channel.last_write_group == where.bank_group;
    command = std::max(command, channel.last_write_data_end + (after_write_same_group ? t_.wtr_l : t_.wtr_s));
  }
  const std::int64_t latency = is_write ? t_.cwl : t_.cl;
  return std::max(command, channel.bus_free - latency);  // the data bus carries one burst at a time
}

BankScheduler::Bank& BankScheduler::bank_at(const DramLocation& where) {
  Rank& rank = channels_[static_cast<std::size_t>(where.channel)].ranks[static_cast<std::size_t>(where.rank)];
  return rank.banks[static_cast<std::size_t>(where.bank_group * spec_.organisation.banks_per_group + where.bank)];
}

std::int64_t BankScheduler::serve_access(const DramLocation& where, bool is_write, std::int64_t arrival) {
  Channel& channel = channels_[static_cast<std::size_t>(where.channel)];
  Rank& rank = channel.ranks[static_cast<std::size_t>(where.rank)];
  Bank& bank = bank_at(where);
  // A refresh falls due before this access could be issued on the bus: it goes first.
  refresh_until(rank, std::max(arrival, channel.bus_free));

  if (bank.open_row == where.row) {
    ++counts_.row_hits;
  } else {
    if (bank.open_row >= 0) {
      ++counts_.row_conflicts;
      close_row(bank, std::max(arrival, bank.next_precharge));
    } else {
      ++counts_.row_misses;
    }
    open_row(rank, bank, where, arrival);
  }

  const std::int64_t command = column_command_time(channel, bank, where, is_write, arrival);
  const std::int64_t data_end = command + (is_write ? t_.cwl : t_.cl) + burst_ps_;
  channel.bus_free = data_end;
  channel.last_column = command;
  channel.last_column_group = where.bank_group;
  channel.last_column_rank = where.rank;
  channel.last_was_write = is_write;
  if (is_write) {
    ++counts_.writes;
    counts_.write_burst_ps += burst_ps_;
    counts_.clocked_write_burst_ps += static_cast<double>(burst_ps_) * clock_scale_;
    channel.last_write_data_end = data_end;
    channel.last_write_group = where.bank_group;
    bank.next_precharge = std::max(bank.next_precharge, data_end + t_.wr);
  } else {
    ++counts_.reads;
    counts_.read_burst_ps += burst_ps_;
    counts_.clocked_read_burst_ps += static_cast<double>(burst_ps_) * clock_scale_;
    bank.next_precharge = std::max(bank.next_precharge, command + t_.rtp);
  }
  if (policy_ == PagePolicy::kClosed) close_row(bank, bank.next_precharge);
  return data_end;
}

std::int64_t BankScheduler::serve(std::uint64_t address, std::uint64_t bytes, bool is_write, std::int64_t arrival_ps) {
  const auto access_bytes = static_cast<std::uint64_t>(spec_.organisation.access_bytes());
  std::uint64_t next = address / access_bytes * access_bytes;
  const std::uint64_t end = address + bytes;
  std::int64_t done = arrival_ps;
  while (next < end) {
    std::size_t count = 0;
    for (; next < end && count < kSchedulingWindow; next += access_bytes) window_[count++] = mapping_.locate(next);
    // First ready: accesses whose row is open; then the rest, oldest first.
    bool served[kSchedulingWindow];
    for (std::size_t i = 0; i < count; ++i) {
      const DramLocation& where = window_[i];
      served[i] = bank_at(where).open_row == where.row;
      if (served[i]) done = std::max(done, serve_access(where, is_write, arrival_ps));
    }
    for (std::size_t i = 0; i < count; ++i) {
      if (!served[i]) done = std::max(done, serve_access(window_[i], is_write, arrival_ps));
    }
  }
  return done;
}

void BankScheduler::advance_to(std::int64_t end_ps) {
  for (Channel& channel : channels_) {
    for (Rank& rank : channel.ranks) {
      refresh_until(rank, end_ps);
      for (Bank& bank : rank.banks) {
        if (bank.open_row >= 0) count_open_time(bank, end_ps);
      }
      if (end_ps > rank.observed_until) {
        counts_.clocked_elapsed_ps += static_cast<double>(end_ps - rank.observed_until) * clock_scale_;
        rank.observed_until = end_ps;
      }
    }
  }
}

}  // namespace ergon
