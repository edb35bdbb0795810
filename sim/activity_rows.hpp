#pragma once
// The rows of activity.csv, bounded (docs/simulator.md, `--activity`). Intervals arrive in time order. At
// `intervals` detail each is a row until there are more than `max_rows`; then adjacent rows are merged in
// pairs, and from then on incoming intervals are grouped twice as coarsely, until the rows fit. At
// `layers` detail a layer is one row (more only where the clock or voltage changed within it). Rows of
// different layers, levels or DVFS switches are never merged, so sums over rows (MACs, DRAM bytes) and the
// levels in force are unchanged; a merged row's active PEs and stall are cycle-weighted means.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "arch/controller/activity.hpp"

namespace ergon {

enum class ActivityDetail { kNone, kLayers, kIntervals };

// "none", "layers" or "intervals" (any case); throws std::invalid_argument otherwise.
ActivityDetail parse_activity_detail(const std::string& text);

inline constexpr std::size_t kDefaultActivityMaxRows = 100000;

struct ActivityRow {
  ActivityInterval interval;    // counts summed; start of the first, end of the last
  double active_pe_cycles = 0;  // sum of active PEs x cycles
  double stall_cycles = 0;      // cycles spent stalled
  std::uint64_t intervals = 1;  // how many intervals were merged into this row

  double cycles() const { return static_cast<double>(interval.end_cycle - interval.start_cycle); }
  double mean_active_pes() const;  // cycle-weighted
  double stall_fraction() const;   // 0 or 1 for a single interval
};

class ActivityRows {
 public:
  ActivityRows(ActivityDetail detail, std::size_t max_rows);
  void add(const ActivityInterval& interval);
  const std::vector<ActivityRow>& rows() const { return rows_; }
  std::uint64_t group_size() const { return group_size_; }  // intervals per row at most (intervals detail)

 private:
  bool can_merge(const ActivityRow& row, const ActivityInterval& next, std::uint64_t limit) const;
  void coarsen();

  ActivityDetail detail_;
  std::size_t max_rows_;
  std::uint64_t group_size_ = 1;
  std::vector<ActivityRow> rows_;
};

}  // namespace ergon
