// Fuzz target: a sweep's `--param key=values` and `--shard I/N` texts.
#include "sim/sweep/sweep_points.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)ergon::parse_sweep_parameter(text);
  } catch (const ergon::InputError&) {
  }
  try {
    (void)ergon::parse_shard(text);
  } catch (const ergon::InputError&) {
  }
  return 0;
}
