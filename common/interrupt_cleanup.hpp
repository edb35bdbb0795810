#pragma once
// What an interrupted command leaves behind: nothing. Staging folders and temporary files register here
// while they exist; if SIGINT or SIGTERM ends the process, the handler removes every registered path and
// exits with status 3 (docs/cli.md). The handler uses only async-signal-safe calls, so the paths are
// kept in fixed buffers and removed with raw directory reads.
#include <string>

namespace ergon {

inline constexpr int kExitInterrupted = 3;

// Installs the handler for SIGINT and SIGTERM in this process (main() does, once). A forked child that
// inherits it leaves the parent's paths alone and dies of the signal as it would by default.
void install_interrupt_cleanup();

// A path (file or folder) removed if the process is interrupted while this lives.
class CleanupOnInterrupt {
 public:
  explicit CleanupOnInterrupt(const std::string& path);
  ~CleanupOnInterrupt();
  CleanupOnInterrupt(const CleanupOnInterrupt&) = delete;
  CleanupOnInterrupt& operator=(const CleanupOnInterrupt&) = delete;

 private:
  int slot_ = -1;  // -1: the registry was full; the path is then only cleaned on normal exits
};

}  // namespace ergon
