#include "sim/parallel/interrupt.hpp"

#include <signal.h>

namespace ergon {
namespace {

// Signal handlers can only touch lock-free atomics: the one process-wide flag this needs.
volatile sig_atomic_t stop_signal = 0;
struct sigaction previous_int, previous_term;

void on_signal(int number) {
  stop_signal = number;
}

}  // namespace

InterruptGuard::InterruptGuard() {
  stop_signal = 0;
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a blocked poll() returns so the loop sees the request
  sigaction(SIGINT, &action, &previous_int);
  sigaction(SIGTERM, &action, &previous_term);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &previous_int, nullptr);
  sigaction(SIGTERM, &previous_term, nullptr);
}

bool InterruptGuard::requested() {
  return stop_signal != 0;
}

int InterruptGuard::signal_number() {
  return static_cast<int>(stop_signal);
}

}  // namespace ergon
