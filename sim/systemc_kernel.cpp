#include "sim/systemc_kernel.hpp"

#include <systemc>

namespace ergon {

void start_fresh_systemc_kernel() {
  sc_core::sc_curr_simcontext = new sc_core::sc_simcontext();
  sc_core::sc_default_global_context = sc_core::sc_curr_simcontext;
}

}  // namespace ergon

// libsystemc refers to sc_main; Ergon's own main() drives the kernel directly, so this is never called.
int sc_main(int /*argc*/, char* /*argv*/[]) {
  return 0;
}
