// Fuzz target: an accelerator config YAML file (ergon run --config).
#include "arch/accelerator_config.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = ergon::fuzz::write_scratch_file(data, size, ".yaml");
  ergon::fuzz::expect_load_or_input_error(path, [&] { ergon::load_accelerator_config(path); });
  return 0;
}
