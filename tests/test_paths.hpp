#pragma once
// Paths the tests use: the source tree (shipped configs, workloads, tables) and the test data.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

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
// The catalogue of hostile inputs: tests/data/invalid_inputs.yaml and every tests/data/catalogue/*.yaml
// (one file per area, so that work on different areas adds cases without touching one file), sorted.
inline std::vector<std::string> catalogue_files() {
  std::vector<std::string> files = {data_dir() + "/invalid_inputs.yaml"};
  const std::filesystem::path folder = data_dir() + "/catalogue";
  std::vector<std::string> area_files;
  if (std::filesystem::is_directory(folder)) {
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
      if (entry.path().extension() == ".yaml") area_files.push_back(entry.path().string());
    }
  }
  std::sort(area_files.begin(), area_files.end());
  files.insert(files.end(), area_files.begin(), area_files.end());
  return files;
}
// A path in the temporary folder that no other test process uses: ctest runs each test as its own
// process, in parallel, so a fixed name shared by two tests is a race.
inline std::filesystem::path unique_temp_path(const std::string& name) {
  return std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "_" + name);
}

}  // namespace ergon::test
