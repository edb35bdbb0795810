#pragma once
// Moving finished outputs into place all or nothing. Every target is checked before any is replaced (a
// folder in the way, a parent that is not a folder, a folder we may not write in); a file already at a
// target is set aside beside it and put back if a later move fails, so a failed commit leaves every
// target as it was. SIGINT and SIGTERM wait until the moves are done (common/interrupt_cleanup).
#include <string>
#include <vector>

namespace ergon {

struct StagedMove {
  std::string staged;  // the finished file
  std::string target;  // where it goes
};

// Throws std::runtime_error naming the target that cannot be replaced, after undoing every move made.
void commit_staged_files(const std::vector<StagedMove>& moves);

// Throws if a file cannot be moved to `target` (the checks commit_staged_files makes first): for options
// to check before any work.
void check_target_replaceable(const std::string& target);

}  // namespace ergon
