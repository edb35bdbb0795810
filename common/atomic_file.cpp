#include "common/atomic_file.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "common/interrupt_cleanup.hpp"

namespace ergon {

void write_file_atomically(const std::string& path, const std::string& content) {
  const std::filesystem::path target(path);
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path());
  const std::string temporary = path + ".tmp." + std::to_string(::getpid());
  const CleanupOnInterrupt cleanup(temporary);
  {
    std::ofstream stream(temporary, std::ios::binary | std::ios::trunc);
    stream << content;
    stream.flush();
    if (!stream) {
      std::remove(temporary.c_str());
      throw std::runtime_error("cannot write " + temporary);
    }
  }
  std::error_code error;
  std::filesystem::rename(temporary, target, error);
  if (error) {
    std::remove(temporary.c_str());
    throw std::runtime_error("cannot move " + temporary + " to " + path + ": " + error.message());
  }
}

}  // namespace ergon
