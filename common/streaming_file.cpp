#include "common/streaming_file.hpp"

#include <unistd.h>

#include <filesystem>
#include <stdexcept>

#include "common/interrupt_cleanup.hpp"
#include "common/output_budget.hpp"

namespace ergon {

StreamingFile::StreamingFile(std::string path)
    : path_(std::move(path)),
      temporary_path_(path_ + ".tmp." + std::to_string(::getpid())),
      cleanup_(std::make_unique<CleanupOnInterrupt>(temporary_path_)) {
  file_ = std::fopen(temporary_path_.c_str(), "w");
  if (file_ == nullptr) throw std::runtime_error("cannot write " + temporary_path_);
}

StreamingFile::~StreamingFile() {
  if (file_ != nullptr) {
    std::fclose(file_);
    std::remove(temporary_path_.c_str());
  }
}

void StreamingFile::write(const std::string& text) {
  if (budget_ != nullptr && !budget_->take(text.size(), path_)) return;
  std::fwrite(text.data(), 1, text.size(), file_);
}

void StreamingFile::finish() {
  const bool written = std::fflush(file_) == 0 && std::ferror(file_) == 0;
  std::fclose(file_);
  file_ = nullptr;
  std::error_code error;
  if (written) std::filesystem::rename(temporary_path_, path_, error);
  if (!written || error) {
    std::remove(temporary_path_.c_str());
    throw std::runtime_error("cannot write " + path_);
  }
}

}  // namespace ergon
