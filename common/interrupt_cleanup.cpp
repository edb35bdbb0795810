#include "common/interrupt_cleanup.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace ergon {
namespace {

constexpr int kSlots = 64;
constexpr std::size_t kPathBytes = 4096;
constexpr int kMaxDepth = 16;  // staging folders are shallow; deeper trees are left rather than risked

// Written only outside the handler, and each slot is published by its flag after its path is complete.
std::array<std::array<char, kPathBytes>, kSlots> registered_paths{};
std::array<volatile sig_atomic_t, kSlots> slot_in_use{};
volatile pid_t owner_pid = 0;

struct LinuxDirent64 {
  ino64_t inode;
  off64_t offset;
  unsigned short record_length;
  unsigned char type;
  char name[256];  // NUL-terminated within record_length
};

bool remove_tree_at(int parent_fd, const char* name, int depth);

void remove_children(int directory_fd, int depth) {
  alignas(LinuxDirent64) char buffer[4096];
  for (bool removed_any = true; removed_any;) {
    // Entries are removed while the folder is read: read it again from the start until a pass removes
    // nothing (empty, or only what cannot be removed is left).
    removed_any = false;
    if (lseek(directory_fd, 0, SEEK_SET) != 0) return;
    for (long bytes; (bytes = syscall(SYS_getdents64, directory_fd, buffer, sizeof buffer)) > 0;) {
      for (long offset = 0; offset < bytes;) {
        const auto* entry = reinterpret_cast<const LinuxDirent64*>(buffer + offset);
        offset += entry->record_length;
        if (std::strcmp(entry->name, ".") == 0 || std::strcmp(entry->name, "..") == 0) continue;
        removed_any = remove_tree_at(directory_fd, entry->name, depth + 1) || removed_any;
      }
    }
  }
}

bool remove_tree_at(int parent_fd, const char* name, int depth) {
  if (unlinkat(parent_fd, name, 0) == 0) return true;
  if (errno == ENOENT || depth >= kMaxDepth) return false;
  const int directory_fd = openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (directory_fd < 0) return false;
  remove_children(directory_fd, depth);
  close(directory_fd);
  return unlinkat(parent_fd, name, AT_REMOVEDIR) == 0;
}

void write_stderr(const char* text) {
  const ssize_t ignored = write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

void on_interrupt(int signal_number) {
  if (getpid() != owner_pid) {  // a forked worker: the parent cleans up after it
    signal(signal_number, SIG_DFL);
    raise(signal_number);
    return;
  }
  for (int slot = 0; slot < kSlots; ++slot) {
    if (slot_in_use[slot]) remove_tree_at(AT_FDCWD, registered_paths[slot].data(), 0);
  }
  if (signal_number == SIGPIPE) {  // stdout's reader left (`| head`): end as any tool does, quietly
    signal(SIGPIPE, SIG_DFL);
    raise(SIGPIPE);
    return;
  }
  write_stderr(signal_number == SIGINT ? "\nerror: interrupted (SIGINT); partial outputs removed\n"
                                       : "\nerror: terminated (SIGTERM); partial outputs removed\n");
  _exit(kExitInterrupted);
}

}  // namespace

void install_interrupt_cleanup() {
  owner_pid = getpid();
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  sigaddset(&action.sa_mask, SIGINT);
  sigaddset(&action.sa_mask, SIGTERM);
  sigaddset(&action.sa_mask, SIGPIPE);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  sigaction(SIGPIPE, &action, nullptr);
}

CleanupOnInterrupt::CleanupOnInterrupt(const std::string& relative_path) {
  if (relative_path.empty()) return;
  std::error_code error;
  const std::string path = std::filesystem::absolute(relative_path, error).string();
  if (error || path.size() >= kPathBytes) return;
  for (int slot = 0; slot < kSlots; ++slot) {
    if (slot_in_use[slot]) continue;
    std::memcpy(registered_paths[slot].data(), path.c_str(), path.size() + 1);
    slot_in_use[slot] = 1;
    slot_ = slot;
    return;
  }
}

CleanupOnInterrupt::~CleanupOnInterrupt() {
  if (slot_ >= 0) slot_in_use[slot_] = 0;
}

}  // namespace ergon
