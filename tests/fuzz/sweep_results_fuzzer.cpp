// Fuzz target: a sweep's results.csv as `--resume` and `sweep-merge` read it back (as CSV records). Whatever it holds,
// the indexed points must lie inside the file and follow the header.
#include <filesystem>

#include "sim/sweep/sweep_results.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const ergon::ResultsFormat format = {
      "point,workload,\"glb.size_kib\",layer,op,cycles,macs,total_pj\n", {"cycles", "macs"}, 10000};
  const std::string path = ergon::fuzz::write_scratch_file(data, size, ".csv");
  ergon::fuzz::expect_load_or_input_error(path, [&] {
    const auto points = ergon::index_results(path, format);
    for (const auto& [point, rows] : points) {
      if (point >= 10000 || rows.offset < format.header.size() || rows.offset + rows.length > size) {
        std::fprintf(stderr, "point %zu indexed outside the file\n", point);
        std::abort();
      }
    }
  });
  return 0;
}
