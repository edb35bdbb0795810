#include "sim/activity_rows.hpp"

#include <limits>
#include <stdexcept>

#include "common/text.hpp"

namespace ergon {
namespace {

ActivityRow row_of(const ActivityInterval& interval) {
  ActivityRow row;
  row.interval = interval;
  const double cycles = row.cycles();
  row.active_pe_cycles = static_cast<double>(interval.active_pes) * cycles;
  row.stall_cycles = interval.stall ? cycles : 0.0;
  return row;
}

void absorb(ActivityRow& row, const ActivityRow& next) {
  ActivityInterval& a = row.interval;
  const ActivityInterval& b = next.interval;
  a.end_cycle = b.end_cycle;
  a.end_ps = b.end_ps;
  a.macs += b.macs;
  a.rf_accesses += b.rf_accesses;
  a.noc_transfers += b.noc_transfers;
  a.glb_accesses += b.glb_accesses;
  a.dram_bytes += b.dram_bytes;
  a.stall = a.stall && b.stall;
  row.active_pe_cycles += next.active_pe_cycles;
  row.stall_cycles += next.stall_cycles;
  row.intervals += next.intervals;
}

}  // namespace

ActivityDetail parse_activity_detail(const std::string& text) {
  const std::string lower = ascii_lower(text);
  if (lower == "none") return ActivityDetail::kNone;
  if (lower == "layers") return ActivityDetail::kLayers;
  if (lower == "intervals") return ActivityDetail::kIntervals;
  throw std::invalid_argument("--activity " + text + ": expected none, layers or intervals");
}

double ActivityRow::mean_active_pes() const {
  const double span = cycles();
  return span > 0 ? active_pe_cycles / span : static_cast<double>(interval.active_pes);
}

double ActivityRow::stall_fraction() const {
  const double span = cycles();
  return span > 0 ? stall_cycles / span : (interval.stall ? 1.0 : 0.0);
}

ActivityRows::ActivityRows(ActivityDetail detail, std::size_t max_rows)
    : detail_(detail), max_rows_(max_rows == 0 ? 1 : max_rows) {}

bool ActivityRows::can_merge(const ActivityRow& row, const ActivityInterval& next, std::uint64_t limit) const {
  const ActivityInterval& a = row.interval;
  return a.layer_index == next.layer_index && a.end_cycle == next.start_cycle && !a.dvfs_switch && !next.dvfs_switch &&
         a.frequency_mhz == next.frequency_mhz && a.voltage_v == next.voltage_v &&
         a.dram_bandwidth_gbps == next.dram_bandwidth_gbps && row.intervals < limit;
}

void ActivityRows::add(const ActivityInterval& interval) {
  const std::uint64_t limit =
      detail_ == ActivityDetail::kLayers ? std::numeric_limits<std::uint64_t>::max() : group_size_;
  if (!rows_.empty() && can_merge(rows_.back(), interval, limit)) {
    absorb(rows_.back(), row_of(interval));
    return;
  }
  rows_.push_back(row_of(interval));
  if (detail_ == ActivityDetail::kIntervals && rows_.size() > max_rows_) coarsen();
}

// Merges adjacent rows in pairs (where they may merge) and doubles the group size, until the rows fit or
// nothing more can merge (only rows of different layers or levels are left).
void ActivityRows::coarsen() {
  while (rows_.size() > max_rows_ && group_size_ < std::numeric_limits<std::uint64_t>::max() / 2) {
    group_size_ *= 2;
    std::vector<ActivityRow> merged;
    merged.reserve(rows_.size() / 2 + 1);
    for (const ActivityRow& row : rows_) {
      if (!merged.empty() && can_merge(merged.back(), row.interval, group_size_) &&
          merged.back().intervals + row.intervals <= group_size_) {
        absorb(merged.back(), row);
      } else {
        merged.push_back(row);
      }
    }
    const bool progressed = merged.size() < rows_.size();
    rows_ = std::move(merged);
    if (!progressed) {  // try again only once the rows have doubled, so adding stays linear
      max_rows_ = rows_.size() * 2;
      return;
    }
  }
}

}  // namespace ergon
