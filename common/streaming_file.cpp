#include "common/streaming_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <stdexcept>

#include "common/atomic_file.hpp"
#include "common/interrupt_cleanup.hpp"
#include "common/output_budget.hpp"

namespace ergon {

StreamingFile::StreamingFile(std::string path)
    : path_(std::move(path)),
      temporary_path_(path_ + ".tmp." + std::to_string(::getpid())),
      cleanup_(std::make_unique<CleanupOnInterrupt>(temporary_path_)) {
  file_ = std::fopen(temporary_path_.c_str(), "w");
  if (file_ == nullptr) throw std::runtime_error(write_error_message(path_, errno));
}

StreamingFile::~StreamingFile() {
  if (file_ != nullptr) {
    std::fclose(file_);
    std::remove(temporary_path_.c_str());
  }
}

void StreamingFile::write(const std::string& text) {
  if (budget_ != nullptr && !budget_->take(text.size(), path_)) return;
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size() && first_error_ == 0) first_error_ = errno;
}

void StreamingFile::finish() {
  int error_number = first_error_;
  if (error_number == 0 && std::fflush(file_) != 0) error_number = errno;
  if (error_number == 0 && std::ferror(file_) != 0) error_number = EIO;
  if (std::fclose(file_) != 0 && error_number == 0) error_number = errno;
  file_ = nullptr;
  std::error_code error;
  if (error_number == 0) std::filesystem::rename(temporary_path_, path_, error);
  if (error_number != 0 || error) {
    std::remove(temporary_path_.c_str());
    throw std::runtime_error(error_number != 0
                                 ? write_error_message(path_, error_number)
                                 : "cannot move " + temporary_path_ + " to " + path_ + ": " + error.message());
  }
}

}  // namespace ergon
