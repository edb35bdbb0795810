// Fuzz target: a SCALE-Sim .cfg file. What the reader accepts must convert into a config that loads;
// otherwise the user would get an error about a generated file instead of a line of their .cfg.
#include "arch/accelerator_config.hpp"
#include "arch/importers/scalesim_config.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = ergon::fuzz::write_scratch_file(data, size, ".cfg");
  ergon::fuzz::expect_load_or_input_error(path, [&] {
    const std::string converted = ergon::scalesim_config_yaml(ergon::read_scalesim_config(path), path);
    const std::string converted_path = ergon::fuzz::write_scratch_file(converted, ".yaml");
    try {
      ergon::load_accelerator_config(converted_path);
    } catch (const ergon::InputError& error) {
      std::fprintf(stderr, "accepted .cfg converts to a config that fails: %s\n", error.what());
      std::abort();
    }
  });
  return 0;
}
