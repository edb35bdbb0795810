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
// The test process's own folder under the temporary folder, removed with everything in it when the process
// exits (by the process that made it: a forked worker's exit leaves it).
class TestTempFolder {
 public:
  TestTempFolder()
      : owner_(::getpid()), path_(std::filesystem::temp_directory_path() / ("ergon-test-" + std::to_string(owner_))) {
    std::filesystem::create_directories(path_);
  }
  ~TestTempFolder() {
    if (::getpid() != owner_) return;
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TestTempFolder(const TestTempFolder&) = delete;
  TestTempFolder& operator=(const TestTempFolder&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  pid_t owner_;
  std::filesystem::path path_;
};

// A path that no other test process uses: ctest runs each test as its own process, in parallel, so a fixed
// name shared by two tests is a race. It lies in the process's TestTempFolder, so nothing is left behind.
inline std::filesystem::path unique_temp_path(const std::string& name) {
  static const TestTempFolder folder;
  return folder.path() / name;
}

}  // namespace ergon::test
