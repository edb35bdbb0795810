#pragma once
// Paths the tests use: the source tree (shipped configs, workloads, tables) and the test data.
#include <unistd.h>

#include <filesystem>
#include <string>

namespace ergon::test {

inline std::string source_dir() {
  return ERGON_SOURCE_DIR;
}
inline std::string data_dir() {
  return std::string(ERGON_SOURCE_DIR) + "/tests/data";
}
inline std::string ergon_binary() {
  return ERGON_BINARY;
}
// A path in the temporary folder that no other test process uses: ctest runs each test as its own
// process, in parallel, so a fixed name shared by two tests is a race.
inline std::filesystem::path unique_temp_path(const std::string& name) {
  return std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "_" + name);
}

}  // namespace ergon::test
