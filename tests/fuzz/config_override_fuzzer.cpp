// Fuzz target: `--set key.path=value` overrides, one per input line, applied to the shipped Eyeriss config.
// Starting from a valid config lets the fuzzer reach the value checks behind the YAML syntax.
#include <sstream>
#include <vector>

#include "arch/accelerator_config.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string config_path = std::string(ERGON_SOURCE_DIR) + "/configs/eyeriss.yaml";
  std::vector<std::string> overrides;
  std::istringstream lines(std::string(reinterpret_cast<const char*>(data), size));
  for (std::string line; std::getline(lines, line);) overrides.push_back(line);
  ergon::fuzz::expect_load_or_input_error(config_path, [&] { ergon::load_accelerator_config(config_path, overrides); });
  return 0;
}
