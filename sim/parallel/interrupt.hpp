#pragma once
// SIGINT and SIGTERM turned into a request to stop: long runs (sweeps) finish the work in hand, keep every
// finished result and exit, instead of dying mid-write. A handler is installed while a guard lives (it
// also overrides the SIG_IGN a background job inherits for SIGINT).
#include <stdexcept>

namespace ergon {

class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  static bool requested();
  static int signal_number();
};

struct Interrupted : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace ergon
