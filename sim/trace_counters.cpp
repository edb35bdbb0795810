#include "sim/trace_counters.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

namespace ergon {
namespace {

// Bytes per picosecond in GB/s (1 B/ps = 1e12 B/s).
constexpr double kGbpsPerBytePerPs = 1e3;
// Accesses per picosecond in accesses per ns.
constexpr double kPerNsPerPerPs = 1e3;
// Picojoules per picosecond in mW (1 pJ/ps = 1 W).
constexpr double kMwPerPjPerPs = 1e3;

std::string json_string(const std::string& text) {
  return nlohmann::json(text).dump();
}

}  // namespace

CounterTrack::CounterTrack(std::string name, std::string category, std::vector<std::string> series)
    : name_(json_string(name)), category_(json_string(category)) {
  for (const std::string& s : series) series_.push_back(json_string(s));
}

std::string CounterTrack::set(std::uint64_t ts_ps, std::initializer_list<double> values) {
  std::string args;
  std::size_t i = 0;
  for (double value : values) {
    args += fmt::format("{}{}: {:.6g}", i == 0 ? "" : ", ", series_.at(i), value);
    ++i;
  }
  const std::string ready = pending_ && pending_->ts_ps < ts_ps ? flush() : "";
  if (args == last_written_) {
    pending_.reset();  // back to the value written: nothing changes
  } else {
    pending_ = Pending{ts_ps, args};
  }
  return ready;
}

std::string CounterTrack::flush() {
  if (!pending_) return "";
  last_written_ = pending_->args;
  const std::string event =
      fmt::format(R"({{"name": {}, "cat": {}, "ph": "C", "pid": 1, "ts": {:.6f}, "args": {{{}}}}},)", name_, category_,
                  static_cast<double>(pending_->ts_ps) / 1e6, pending_->args) +
      "\n";
  pending_.reset();
  return event;
}

std::string TransferBandwidthTrack::add(std::uint64_t start_ps, std::uint64_t end_ps, std::uint64_t bytes) {
  std::string events = end_transfers_before(start_ps);
  drop_transfers_ending_at(start_ps);  // shown with the new transfer: one event at start_ps
  // A transfer the DRAM completed at once has no rate to show; it cannot be integrated either.
  if (end_ps > start_ps && bytes > 0) {
    in_flight_.push_back(
        {end_ps, kGbpsPerBytePerPs * static_cast<double>(bytes) / static_cast<double>(end_ps - start_ps)});
  }
  return events + track_.set(start_ps, {in_flight_gbps()});
}

std::string TransferBandwidthTrack::finish() {
  std::string events = end_transfers_before(UINT64_MAX);
  return events + track_.flush();
}

// Every transfer ending before `ps` ends: one event per distinct end.
std::string TransferBandwidthTrack::end_transfers_before(std::uint64_t ps) {
  std::string events;
  while (!in_flight_.empty()) {
    const auto earliest = std::min_element(in_flight_.begin(), in_flight_.end(),
                                           [](const Transfer& a, const Transfer& b) { return a.end_ps < b.end_ps; });
    if (earliest->end_ps >= ps) break;
    const std::uint64_t end_ps = earliest->end_ps;
    drop_transfers_ending_at(end_ps);
    events += track_.set(end_ps, {in_flight_gbps()});
  }
  return events;
}

void TransferBandwidthTrack::drop_transfers_ending_at(std::uint64_t ps) {
  in_flight_.erase(
      std::remove_if(in_flight_.begin(), in_flight_.end(), [ps](const Transfer& t) { return t.end_ps == ps; }),
      in_flight_.end());
}

// Summed afresh at every change, so that adding and taking away rates leaves no rounding behind.
double TransferBandwidthTrack::in_flight_gbps() const {
  double gbps = 0;
  for (const Transfer& t : in_flight_) gbps += t.gbps;
  return gbps;
}

ActivityTracks::ActivityTracks(std::int64_t pe_count)
    : pe_count_(pe_count),
      utilisation_("PE utilisation", "activity", {"percent"}),
      glb_accesses_("GLB accesses", "activity", {"per_ns"}) {}

std::string ActivityTracks::add(const ActivityInterval& interval) {
  const bool stall = interval.stall || interval.dvfs_switch;
  std::string events;
  if (bucket_ && (bucket_->layer_index != interval.layer_index || bucket_->stall != stall)) events = flush();
  if (!bucket_) bucket_ = Bucket{interval.layer_index, stall, interval.start_ps, interval.start_ps, 0, 0};
  const std::uint64_t duration_ps = interval.end_ps - interval.start_ps;
  bucket_->end_ps = std::max(bucket_->end_ps, interval.end_ps);
  bucket_->active_pe_ps += interval.active_pes * duration_ps;
  bucket_->glb_accesses += interval.glb_accesses;
  return events;
}

std::string ActivityTracks::flush() {
  if (!bucket_) return "";
  Bucket b = *bucket_;
  bucket_.reset();
  // A cycle-accurate array's interval ends on its clock's edge, which may fall after the next one's start
  // by less than a cycle: the later bucket is shown from the earlier one's end, with the same counts.
  b.start_ps = std::max(b.start_ps, last_end_ps_);
  b.active_pe_ps += carried_.active_pe_ps;
  b.glb_accesses += carried_.glb_accesses;
  if (b.end_ps <= b.start_ps) {  // nothing left to show it in: its counts go to the next bucket
    carried_ = b;
    return "";
  }
  carried_ = Bucket{};
  std::string events;
  if (b.start_ps > last_end_ps_) events += set_values(last_end_ps_, 0, 0);  // idle since the last bucket
  const double duration_ps = static_cast<double>(b.end_ps - b.start_ps);
  const double utilisation_percent =
      pe_count_ > 0 ? 100.0 * static_cast<double>(b.active_pe_ps) / (static_cast<double>(pe_count_) * duration_ps)
                    : 0.0;
  events +=
      set_values(b.start_ps, utilisation_percent, kPerNsPerPerPs * static_cast<double>(b.glb_accesses) / duration_ps);
  last_end_ps_ = b.end_ps;
  return events;
}

std::string ActivityTracks::finish() {
  std::string events = flush();  // first: it moves last_end_ps_
  events += set_values(last_end_ps_, 0, 0);
  events += utilisation_.flush();
  return events + glb_accesses_.flush();
}

std::string ActivityTracks::set_values(std::uint64_t ts_ps, double utilisation_percent, double glb_accesses_per_ns) {
  const std::string utilisation = pe_count_ > 0 ? utilisation_.set(ts_ps, {utilisation_percent}) : "";
  return utilisation + glb_accesses_.set(ts_ps, {glb_accesses_per_ns});
}

std::vector<PowerStep> layer_power_steps(const std::vector<std::optional<LayerSpan>>& spans,
                                         const std::vector<LayerEnergy>& energies) {
  // Each layer adds its power at its start and takes it away at its end; summed in order of time.
  std::map<std::uint64_t, std::vector<std::pair<std::size_t, int>>> changes;  // ps -> (layer, +1 or -1)
  for (std::size_t i = 0; i < spans.size() && i < energies.size(); ++i) {
    if (!spans[i] || spans[i]->end_ps <= spans[i]->start_ps) continue;
    changes[spans[i]->start_ps].emplace_back(i, +1);
    changes[spans[i]->end_ps].emplace_back(i, -1);
  }
  std::vector<std::size_t> drawing;  // the layers whose span covers the step
  std::vector<PowerStep> steps;
  for (const auto& [ps, layer_changes] : changes) {
    for (const auto& [layer, sign] : layer_changes) {
      if (sign > 0) {
        drawing.push_back(layer);
      } else {
        drawing.erase(std::find(drawing.begin(), drawing.end(), layer));
      }
    }
    PowerStep step{ps, 0, 0};
    for (std::size_t layer : drawing) {  // summed afresh: no rounding left behind
      const double span_ps = static_cast<double>(spans[layer]->end_ps - spans[layer]->start_ps);
      step.on_chip_mw += kMwPerPjPerPs * energies[layer].on_chip_pj / span_ps;
      step.dram_mw += kMwPerPjPerPs * energies[layer].dram_pj / span_ps;
    }
    steps.push_back(step);
  }
  return steps;
}

}  // namespace ergon
