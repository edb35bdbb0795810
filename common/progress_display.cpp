#include "common/progress_display.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <iostream>

namespace ergon {
namespace {

constexpr double kQuietStartS = 1.0;  // nothing is shown for work shorter than this
constexpr double kRedrawS = 0.2;      // a terminal's bar is redrawn at most this often
constexpr double kPlainLineS = 5.0;   // a log gets a line at most this often
constexpr std::size_t kBarWidth = 24;

bool shown_flag = false;  // set_progress_shown

}  // namespace

void set_progress_shown(bool shown) {
  shown_flag = shown;
}

bool progress_shown() {
  return shown_flag;
}

ProgressDisplay::ProgressDisplay(std::string what, bool enabled)
    : what_(std::move(what)), enabled_(enabled), terminal_(::isatty(STDERR_FILENO) == 1) {}

ProgressDisplay::~ProgressDisplay() {
  if (shown_ && terminal_ && !finished_) std::cerr << "\n" << std::flush;  // an exception ended the work
}

double ProgressDisplay::seconds_since(Clock::time_point then) const {
  return std::chrono::duration<double>(Clock::now() - then).count();
}

std::string ProgressDisplay::line(double fraction, const std::string& detail) const {
  fraction = std::clamp(fraction, 0.0, 1.0);
  const double elapsed_s = seconds_since(start_);
  std::string eta;
  if (fraction > 0 && fraction < 1) {
    eta = fmt::format(", about {:.0f} s left", elapsed_s * (1 - fraction) / fraction);
  }
  const auto filled = static_cast<std::size_t>(fraction * kBarWidth);
  const std::string bar =
      terminal_ ? "[" + std::string(filled, '#') + std::string(kBarWidth - filled, '.') + "] " : std::string();
  return fmt::format("{}: {}{:.0f}%, {}, {:.1f} s{}", what_, bar, 100 * fraction, detail, elapsed_s, eta);
}

bool ProgressDisplay::due() const {
  if (!enabled_ || finished_ || seconds_since(start_) < kQuietStartS) return false;
  return !shown_ || seconds_since(last_shown_) >= (terminal_ ? kRedrawS : kPlainLineS);
}

void ProgressDisplay::update(double fraction, const std::string& detail) {
  if (!due()) return;
  if (terminal_) {
    std::cerr << "\r\033[K" << line(fraction, detail) << std::flush;  // \033[K clears the rest of the line
  } else {
    std::cerr << "progress: " << line(fraction, detail) << "\n" << std::flush;
  }
  shown_ = true;
  last_shown_ = Clock::now();
}

void ProgressDisplay::finish(const std::string& detail) {
  if (finished_) return;
  finished_ = true;
  if (!enabled_ || !shown_) return;  // nothing was shown: the work was quick
  if (terminal_) {
    std::cerr << "\r\033[K" << line(1.0, detail) << "\n" << std::flush;
  } else {
    std::cerr << "progress: " << line(1.0, detail) << "\n" << std::flush;
  }
}

}  // namespace ergon
