#pragma once
// How many bytes a command's outputs may take (--max-output-mb, docs/cli.md "Bounds"). Files that grow
// while a run goes on (traces) draw on it; once it is spent they stop writing, and the command fails
// with the figure and the option to raise, writing nothing.
#include <cstdint>
#include <string>

namespace ergon {

class OutputBudget {
 public:
  explicit OutputBudget(std::uint64_t max_bytes) : max_bytes_(max_bytes) {}

  // Takes `bytes` for `file`; false (and nothing taken) once they would not fit.
  bool take(std::uint64_t bytes, const std::string& file) {
    if (exceeded_ || bytes > max_bytes_ - used_bytes_) {
      if (!exceeded_) first_file_over_ = file;
      exceeded_ = true;
      return false;
    }
    used_bytes_ += bytes;
    return true;
  }
  bool exceeded() const { return exceeded_; }
  const std::string& first_file_over() const { return first_file_over_; }
  std::uint64_t max_bytes() const { return max_bytes_; }

 private:
  std::uint64_t max_bytes_;
  std::uint64_t used_bytes_ = 0;
  bool exceeded_ = false;
  std::string first_file_over_;
};

}  // namespace ergon
