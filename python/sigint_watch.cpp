#include "python/sigint_watch.hpp"

#include <signal.h>

namespace ergon {
namespace {

// Signal handlers can only touch lock-free atomics; one watch lives at a time (the kernel lock in
// bindings.cpp), so these are its state.
volatile sig_atomic_t sigint_caught = 0;
struct sigaction python_sigint;

void forward_to_python(int number, siginfo_t* info, void* context) {
  sigint_caught = 1;
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
  sigint_caught = 0;
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
  return sigint_caught != 0;
}

}  // namespace ergon
