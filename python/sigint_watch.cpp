#include "python/sigint_watch.hpp"

#include <signal.h>

#include <atomic>

namespace ergon {
namespace {

// Signal handlers can only touch lock-free atomics, and the flag is read by the simulating thread while
// the handler may run on another; one watch lives at a time (the kernel lock in bindings.cpp), so these
// are its state.
std::atomic<bool> sigint_caught{false};
static_assert(std::atomic<bool>::is_always_lock_free, "a signal handler sets the flag");
struct sigaction python_sigint;

void forward_to_python(int number, siginfo_t* info, void* context) {
  sigint_caught.store(true);
  if ((python_sigint.sa_flags & SA_SIGINFO) != 0) {
    python_sigint.sa_sigaction(number, info, context);
  } else {
    python_sigint.sa_handler(number);
  }
}

bool is_a_handler(const struct sigaction& action) {
  if ((action.sa_flags & SA_SIGINFO) != 0) return action.sa_sigaction != nullptr;
  return action.sa_handler != SIG_IGN && action.sa_handler != SIG_DFL && action.sa_handler != nullptr;
}

}  // namespace

SigintWatch::SigintWatch() {
  sigint_caught.store(false);
  if (sigaction(SIGINT, nullptr, &python_sigint) != 0 || !is_a_handler(python_sigint)) return;
  struct sigaction action {};
  action.sa_sigaction = forward_to_python;
  action.sa_mask = python_sigint.sa_mask;
  action.sa_flags = (python_sigint.sa_flags | SA_SIGINFO) & ~SA_RESETHAND;
  installed_ = sigaction(SIGINT, &action, nullptr) == 0;
}

SigintWatch::~SigintWatch() {
  if (installed_) sigaction(SIGINT, &python_sigint, nullptr);
}

bool SigintWatch::caught() {
  return sigint_caught.load();
}

}  // namespace ergon
