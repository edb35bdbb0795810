// Simulated time past SystemC's 64-bit picosecond limit is refused, naming what took so long and its key,
// instead of wrapping to a short time (arch/simulated_time.hpp).
#include "arch/simulated_time.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

#include "arch/clock.hpp"
#include "arch/dram/dram_time_check.hpp"

namespace ergon {
namespace {

std::string message_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const SimulatedTimeOverflow& error) {
    return error.what();
  }
  return "";
}

TEST(SimulatedTime, CyclesOfASlowClockPastTheLimitAreRefusedNamingTheClock) {
  const ClockDomain clock(sc_core::sc_time(1e9, sc_core::SC_PS));  // 0.001 MHz
  EXPECT_EQ(clock.duration_of(18'000'000'000ULL), sc_core::sc_time(1.8e19, sc_core::SC_PS)) << "just below 2^64 ps";
  const std::string message = message_of([&] { clock.duration_of(18'500'000'000ULL); });
  EXPECT_NE(message.find("2^64 ps"), std::string::npos) << message;
  EXPECT_NE(message.find("18500000000 cycles at 0.001 MHz (clock.frequency_mhz"), std::string::npos) << message;
}

TEST(SimulatedTime, ADramTransferPastTheLimitIsRefusedNamingTheBandwidth) {
  const sc_core::sc_time latency(20, sc_core::SC_NS);
  const double picoseconds_per_byte = 1e6;  // 0.001 GB/s
  check_dram_time(sc_core::SC_ZERO_TIME, 18'000'000'000'000ULL, picoseconds_per_byte, latency);
  const std::string message = message_of([&] {
    check_dram_time(sc_core::sc_time(1e18, sc_core::SC_PS), 18'000'000'000'000ULL, picoseconds_per_byte, latency);
  });
  EXPECT_NE(message.find("a DRAM transfer of 18000000000000 bytes at 0.001 GB/s (dram.bandwidth_gbps"),
            std::string::npos)
      << message;
}

TEST(SimulatedTime, ANonNumberDurationIsRefused) {
  EXPECT_THROW(check_simulated_time(sc_core::SC_ZERO_TIME, std::nan(""), [] { return std::string("x"); }),
               SimulatedTimeOverflow);
}

}  // namespace
}  // namespace ergon
