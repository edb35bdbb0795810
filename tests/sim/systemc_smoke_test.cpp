// Checks that SystemC and TLM-2.0 from Debian link and simulate in this build (C++17 ABI): a blocking
// transport call whose annotated delay advances simulated time. Its own executable, because a SystemC
// kernel can elaborate and run only once per process.
#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <systemc>
#include <tlm>

namespace {

struct DelayTarget : sc_core::sc_module {
  tlm_utils::simple_target_socket<DelayTarget> socket{"socket"};
  explicit DelayTarget(sc_core::sc_module_name name) : sc_core::sc_module(name) {
    socket.register_b_transport(this, &DelayTarget::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
    delay += sc_core::sc_time(25, sc_core::SC_NS);
    payload.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

struct Initiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Initiator> socket{"socket"};
  sc_core::sc_time finished_at;
  bool ok = false;
  SC_HAS_PROCESS(Initiator);
  explicit Initiator(sc_core::sc_module_name name) : sc_core::sc_module(name) { SC_THREAD(run); }
  void run() {
    unsigned char data[8] = {};
    tlm::tlm_generic_payload payload;
    payload.set_command(tlm::TLM_READ_COMMAND);
    payload.set_data_ptr(data);
    payload.set_data_length(sizeof(data));
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(payload, delay);
    wait(delay);
    ok = payload.is_response_ok();
    finished_at = sc_core::sc_time_stamp();
  }
};

TEST(SystemCSmoke, TransactionDelayAdvancesSimulatedTime) {
  Initiator initiator("initiator");
  DelayTarget target("target");
  initiator.socket.bind(target.socket);
  sc_core::sc_start();
  EXPECT_TRUE(initiator.ok);
  EXPECT_EQ(initiator.finished_at, sc_core::sc_time(25, sc_core::SC_NS));
}

}  // namespace

int sc_main(int, char**) {
  return 0;
}  // unused: GoogleTest provides main()
