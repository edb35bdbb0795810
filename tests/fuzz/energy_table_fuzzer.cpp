// Fuzz target: an energy table YAML file (a config's energy.table).
#include "power/energy_table.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = ergon::fuzz::write_scratch_file(data, size, ".yaml");
  ergon::fuzz::expect_load_or_input_error(path, [&] { ergon::load_energy_table(path); });
  return 0;
}
