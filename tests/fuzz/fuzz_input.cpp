#include "tests/fuzz/fuzz_input.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace ergon::fuzz {
namespace {

struct ScratchFolder {
  std::filesystem::path path = std::filesystem::temp_directory_path() / ("ergon_fuzz_" + std::to_string(getpid()));
  ScratchFolder() { std::filesystem::create_directories(path); }
  ~ScratchFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};

}  // namespace

std::string write_scratch_file(std::string_view bytes, const std::string& extension) {
  static const ScratchFolder folder;
  const std::string path = (folder.path / ("input" + extension)).string();
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return path;
}

}  // namespace ergon::fuzz
