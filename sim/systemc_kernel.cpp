#include "sim/systemc_kernel.hpp"

#include <systemc>

namespace ergon {

void start_fresh_systemc_kernel() {
  sc_core::sc_curr_simcontext = new sc_core::sc_simcontext();
  sc_core::sc_default_global_context = sc_core::sc_curr_simcontext;
  // Ergon reports its own errors; SystemC's informational messages (e.g. on sc_stop) are noise here.
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
}

}  // namespace ergon

// libsystemc refers to sc_main; Ergon's own main() drives the kernel directly, so this is never called.
int sc_main(int /*argc*/, char* /*argv*/[]) {
  return 0;
}
