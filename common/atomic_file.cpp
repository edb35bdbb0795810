#include "common/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "common/interrupt_cleanup.hpp"

namespace ergon {

std::string write_error_message(const std::string& shown_path, int error_number) {
  std::string why = std::strerror(error_number);
  if (error_number == ENOSPC || error_number == EDQUOT) why = "the disk is full (" + why + ")";
  return "cannot write " + shown_path + ": " + why;
}

void write_whole_file(const std::string& open_path, const std::string& shown_path, const std::string& content) {
  std::FILE* file = std::fopen(open_path.c_str(), "wb");
  if (file == nullptr) throw std::runtime_error(write_error_message(shown_path, errno));
  const bool written = std::fwrite(content.data(), 1, content.size(), file) == content.size() && std::fflush(file) == 0;
  int error_number = written ? 0 : errno;
  const bool closed = std::fclose(file) == 0;  // a deferred write error (NFS, quotas) shows at close
  if (written && !closed) error_number = errno;
  if (!written || !closed) throw std::runtime_error(write_error_message(shown_path, error_number));
}

void write_file_atomically(const std::string& path, const std::string& content) {
  const std::filesystem::path target(path);
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path());
  const std::string temporary = path + ".tmp." + std::to_string(::getpid());
  const CleanupOnInterrupt cleanup(temporary);
  try {
    write_whole_file(temporary, path, content);
  } catch (...) {
    std::remove(temporary.c_str());
    throw;
  }
  std::error_code error;
  std::filesystem::rename(temporary, target, error);
  if (error) {
    std::remove(temporary.c_str());
    throw std::runtime_error("cannot move " + temporary + " to " + path + ": " + error.message());
  }
}

}  // namespace ergon
