// Fuzz target: a SCALE-Sim topology CSV, conv or GEMM (the first byte chooses). What the reader accepts
// must convert into a workload that loads, so errors always point at a line of the user's CSV.
#include "network/importers/scalesim_topology.hpp"
#include "network/workload.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto kind = data[0] % 2 == 0 ? ergon::ScaleSimTopologyKind::kConv : ergon::ScaleSimTopologyKind::kGemm;
  const std::string path = ergon::fuzz::write_scratch_file(data + 1, size - 1, ".csv");
  ergon::fuzz::expect_load_or_input_error(path, [&] {
    const auto layers = ergon::read_scalesim_topology(path, kind).layers;
    const std::string converted_path =
        ergon::fuzz::write_scratch_file(ergon::scalesim_workload_yaml(layers, "fuzz", path), ".yaml");
    try {
      (void)ergon::load_workload(converted_path).total_macs();
    } catch (const ergon::InputError& error) {
      std::fprintf(stderr, "accepted topology converts to a workload that fails: %s\n", error.what());
      std::abort();
    }
  });
  return 0;
}
