#include "common/staged_commit.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace ergon {
namespace fs = std::filesystem;
namespace {

// Blocks SIGINT and SIGTERM in this thread while it lives: an interrupt between two moves would leave
// a mix of old and new files. A pending signal is delivered when the block ends.
class DeferInterrupts {
 public:
  DeferInterrupts() {
    sigset_t deferred;
    sigemptyset(&deferred);
    sigaddset(&deferred, SIGINT);
    sigaddset(&deferred, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &deferred, &previous_);
  }
  ~DeferInterrupts() { pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }
  DeferInterrupts(const DeferInterrupts&) = delete;
  DeferInterrupts& operator=(const DeferInterrupts&) = delete;

 private:
  sigset_t previous_{};
};

// A file at `target` while the new one moves in: hidden, beside it (so on its file system).
fs::path set_aside_path(const fs::path& target) {
  return target.parent_path() / ("." + target.filename().string() + ".previous." + std::to_string(::getpid()));
}

struct Replacement {
  fs::path target;
  fs::path set_aside;  // empty: there was no file at the target
  bool placed = false;
};

// Puts every target back as it was, last first; best effort (the commit has failed already).
void undo(std::vector<Replacement>& done) {
  for (auto it = done.rbegin(); it != done.rend(); ++it) {
    std::error_code ignored;
    if (it->placed) fs::remove(it->target, ignored);
    if (!it->set_aside.empty()) fs::rename(it->set_aside, it->target, ignored);
  }
}

void move_into_place(const StagedMove& move, std::vector<Replacement>& done) {
  const fs::path target(move.target);
  std::error_code error;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), error);
  if (error) throw fs::filesystem_error("cannot create the folder", target.parent_path(), error);
  Replacement& replacement = done.emplace_back(Replacement{target, {}, false});
  if (fs::exists(fs::symlink_status(target, error))) {
    fs::rename(target, set_aside_path(target));
    replacement.set_aside = set_aside_path(target);
  }
  fs::rename(move.staged, target);
  replacement.placed = true;
}

}  // namespace

void check_target_replaceable(const std::string& target_text) {
  const fs::path target(target_text);
  std::error_code error;
  if (fs::is_directory(fs::symlink_status(target, error))) {
    throw std::runtime_error(target_text +
                             " is a folder; a file cannot replace it (move it away or choose another name)");
  }
  fs::path folder = target.parent_path();
  while (!folder.empty() && !fs::exists(fs::symlink_status(folder, error))) folder = folder.parent_path();
  if (folder.empty()) folder = ".";
  if (!fs::is_directory(fs::status(folder, error))) {
    throw std::runtime_error(target_text + ": " + folder.string() + " is not a folder");
  }
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    throw std::runtime_error(target_text + ": cannot write in the folder " + folder.string() + " (" +
                             std::strerror(errno) + ")");
  }
}

void commit_staged_files(const std::vector<StagedMove>& moves) {
  for (const StagedMove& move : moves) check_target_replaceable(move.target);
  const DeferInterrupts defer;
  std::vector<Replacement> done;
  done.reserve(moves.size());
  for (const StagedMove& move : moves) {
    try {
      move_into_place(move, done);
    } catch (const std::exception& error) {
      undo(done);
      throw std::runtime_error("cannot move " + move.target + " into place (" + error.what() +
                               "); every file it would have replaced is as it was");
    }
  }
  for (const Replacement& replacement : done) {
    std::error_code ignored;
    if (!replacement.set_aside.empty()) fs::remove_all(replacement.set_aside, ignored);
  }
}

}  // namespace ergon
