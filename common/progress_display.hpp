#pragma once
// A progress display on stderr for work that may run for a while (docs/cli.md, "Progress"): a bar redrawn
// in place on a terminal, plain lines (at most one every few seconds) otherwise. It stays silent for the
// first second, so quick commands print nothing, and entirely when disabled (--quiet).
#include <chrono>
#include <string>

namespace ergon {

// Whether progress is shown at all: off unless a command turns it on (docs/cli.md; --quiet keeps it off).
// Worker processes and the tasks of a process pool never show their own.
void set_progress_shown(bool shown);
bool progress_shown();

class ProgressDisplay {
 public:
  // `what` names the work ("simulating alexnet on eyeriss").
  ProgressDisplay(std::string what, bool enabled);
  ~ProgressDisplay();
  ProgressDisplay(const ProgressDisplay&) = delete;
  ProgressDisplay& operator=(const ProgressDisplay&) = delete;

  // False when nothing will ever be shown: callers then need not format a detail per item.
  bool enabled() const { return enabled_; }
  // Whether update() would draw now: callers that update often (per simulated step) format only then.
  bool due() const;
  // `fraction` (0..1) of the work is done; `detail` says how much in the work's own terms.
  void update(double fraction, const std::string& detail);
  // The work is done: a drawn bar gets its final state and a line end.
  void finish(const std::string& detail);

 private:
  using Clock = std::chrono::steady_clock;
  double seconds_since(Clock::time_point then) const;
  std::string line(double fraction, const std::string& detail) const;

  std::string what_;
  bool enabled_;
  bool terminal_;
  bool shown_ = false;
  bool finished_ = false;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_shown_ = start_;
};

}  // namespace ergon
