#pragma once
// Ctrl-C while the Python package simulates. Python runs its signal handlers between bytecodes of the main
// thread, never inside a C++ call, and a simulation's SystemC processes run on stacks of their own, where no
// Python code may run. So while a watch lives, SIGINT is handed to Python's own handler (which notes it for
// PyErr_CheckSignals) and also raises a flag that the simulation polls after every step (its observers'
// interrupt check): the run stops, and the caller then lets Python's handler run on its own stack.
// A SIGINT that Python ignores or leaves at its default is left alone.
namespace ergon {

class SigintWatch {
 public:
  SigintWatch();
  ~SigintWatch();
  SigintWatch(const SigintWatch&) = delete;
  SigintWatch& operator=(const SigintWatch&) = delete;

  // Async-signal-safe and cheap: the simulation asks after every step.
  static bool caught();

 private:
  bool installed_ = false;
};

}  // namespace ergon
