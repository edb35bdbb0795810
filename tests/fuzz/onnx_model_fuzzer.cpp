// Fuzz target: an ONNX model (ergon import onnx, or --workload model.onnx).
#include "network/workload.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = ergon::fuzz::write_scratch_file(data, size, ".onnx");
  ergon::fuzz::expect_load_or_input_error(path, [&] { (void)ergon::load_workload(path).total_macs(); });
  return 0;
}
