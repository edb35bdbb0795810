#pragma once
// A text output written while a run goes on: lines go to a temporary file beside the target, renamed
// into place by finish(). If the run fails first, the temporary file is removed and any earlier file
// at the target is left untouched.
#include <cstdio>
#include <memory>
#include <string>

namespace ergon {

class CleanupOnInterrupt;
class OutputBudget;

class StreamingFile {
 public:
  explicit StreamingFile(std::string path);
  ~StreamingFile();
  StreamingFile(const StreamingFile&) = delete;
  StreamingFile& operator=(const StreamingFile&) = delete;
  StreamingFile(StreamingFile&&) = delete;

  std::FILE* handle() { return file_; }
  // Writes draw on `budget` (common/output_budget): once it is spent, further writes are dropped.
  void set_budget(OutputBudget* budget) { budget_ = budget; }
  void write(const std::string& text);
  void finish();

 private:
  std::string path_;
  std::string temporary_path_;
  std::unique_ptr<CleanupOnInterrupt> cleanup_;  // removes the temporary file if the run is interrupted
  std::FILE* file_ = nullptr;
  OutputBudget* budget_ = nullptr;
  int first_error_ = 0;  // errno of the first failed write, reported by finish()
};

}  // namespace ergon
