#pragma once
// Paths the tests use: the source tree (shipped configs, workloads, tables) and the test data.
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

}  // namespace ergon::test
