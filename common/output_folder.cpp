#include "common/output_folder.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "common/finite_json.hpp"
#include "common/input_error.hpp"
#include "common/interrupt_cleanup.hpp"
#include "common/output_paths.hpp"
#include "common/staged_commit.hpp"

namespace ergon {
namespace fs = std::filesystem;

namespace {

constexpr const char* kStagingMark = ".staging.";

// This machine's name as staging folders carry it: a folder shared between machines (NFS, sharded
// sweeps) holds staging folders of processes this machine cannot see, which must never be taken for dead.
std::string staging_host() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "localhost";
  std::string host = name;
  for (char& c : host) {
    if (c == '/' || c == ' ') c = '-';
  }
  return host;
}

// In the nearest folder that exists on the way to the target, so a failed run creates no parent folders
// either; on the target's file system, so commit() renames rather than copies. Named
// `.NAME.staging.HOST.PID`.
std::string staging_path_for(const std::string& target) {
  fs::path path = fs::path(target).lexically_normal();
  if (path.filename().empty()) path = path.parent_path();  // "results/" names "results"
  const std::string name =
      "." + path.filename().string() + kStagingMark + staging_host() + "." + std::to_string(::getpid());
  fs::path existing = path.parent_path();
  std::error_code error;
  while (!existing.empty() && !fs::is_directory(existing, error)) existing = existing.parent_path();
  return (existing / name).string();
}

// The pid a staging folder of this machine's ends with (`.NAME.staging.HOST.PID`), or 0 when the name is
// not one, or is another machine's.
pid_t staging_owner(const std::string& name) {
  const std::size_t mark = name.rfind(kStagingMark);
  if (name.empty() || name[0] != '.' || mark == std::string::npos) return 0;
  const std::string host_and_pid = name.substr(mark + std::string(kStagingMark).size());
  const std::size_t dot = host_and_pid.rfind('.');
  if (dot == std::string::npos || host_and_pid.substr(0, dot) != staging_host()) return 0;
  const std::string digits = host_and_pid.substr(dot + 1);
  if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) return 0;
  return static_cast<pid_t>(std::stol(digits));
}

// Staging folders beside `staging` whose process no longer exists: a run killed outright (SIGKILL, a
// power cut) could not remove its own. A live pid keeps its folder, whichever process it now is: a
// reused pid only delays the clearing until that process ends, while clearing a live run's folder would
// lose its results. Processes in another pid namespace (containers sharing the folder) are not seen:
// docs/robustness.md.
void clear_abandoned_staging(const std::string& staging) {
  std::error_code error;
  const fs::path parent = fs::path(staging).parent_path().empty() ? fs::path(".") : fs::path(staging).parent_path();
  for (fs::directory_iterator it(parent, error), end; !error && it != end; it.increment(error)) {
    const pid_t owner = staging_owner(it->path().filename().string());
    if (owner <= 0 || owner == ::getpid() || !fs::is_directory(fs::symlink_status(it->path(), error))) continue;
    if (::kill(owner, 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to ask (EPERM): alive
    std::error_code ignored;
    fs::remove_all(it->path(), ignored);
  }
}

std::string read_whole(const fs::path& path) {
  std::ifstream stream(path, std::ios::binary);
  std::stringstream text;
  text << stream.rdbuf();
  return text.str();
}

void refuse_over_input(const std::string& option, const std::string& target, const std::string& name,
                       const std::vector<std::string>& inputs) {
  const std::string output = (fs::path(target) / name).string();
  if (const auto clash = find_output_over_input({output}, inputs)) {
    throw std::runtime_error(option + " " + target + ": the output " + name + " would replace the input " +
                             clash->input + "; choose another folder");
  }
}

// --out is a folder for every command; a name like `est.csv` that does not exist yet is a file name
// from habit (or from before --out was a folder everywhere), and would become a folder of that name.
bool looks_like_a_file_name(const std::string& target) {
  static const std::vector<std::string> extensions = {".csv", ".json", ".md", ".txt", ".yaml", ".yml", ".png", ".svg"};
  const std::string extension = fs::path(target).extension().string();
  return std::find(extensions.begin(), extensions.end(), extension) != extensions.end();
}

}  // namespace

void check_output_folder_option(const std::string& target, const std::string& option) {
  if (target.empty()) throw UsageError(option + " is empty; give an output folder");
  std::error_code error;
  const fs::file_status link_status = fs::symlink_status(target, error);
  if (fs::is_symlink(link_status) && !fs::exists(fs::status(target, error))) {
    throw UsageError(option + " " + target + " is a dangling symbolic link (to " +
                     fs::read_symlink(target, error).string() +
                     ", which does not exist); create that folder or give another --out");
  }
  const fs::file_status status = fs::status(target, error);
  if (fs::exists(status) && !fs::is_directory(status)) {
    throw UsageError(option + " " + target + " is a file, not a folder; give an output folder");
  }
  if (error && error != std::errc::no_such_file_or_directory) {
    throw std::runtime_error(option + " " + target + ": " + error.message());
  }
  if (!fs::exists(status) && looks_like_a_file_name(target)) {
    throw UsageError(option + " " + target + " looks like a file name; " + option +
                     " is always a folder (docs/cli.md), the command names its files in it");
  }
}

OutputFolder::OutputFolder(std::string target, std::string option, const std::vector<std::string>& planned_files,
                           std::vector<std::string> inputs)
    : target_(std::move(target)),
      option_(std::move(option)),
      planned_files_(planned_files),
      inputs_(std::move(inputs)) {
  check_output_folder_option(target_, option_);
  for (const std::string& name : planned_files_) refuse_over_input(option_, target_, name, inputs_);
  staging_ = staging_path_for(target_);
  std::error_code error;
  fs::remove_all(staging_, error);  // a staging folder of an earlier process with this pid
  clear_abandoned_staging(staging_);
  cleanup_ = std::make_unique<CleanupOnInterrupt>(staging_);
  fs::create_directories(staging_, error);
  if (error) {
    throw std::runtime_error(option_ + " " + target_ + ": cannot create a folder beside it (" + staging_ +
                             "): " + error.message());
  }
}

OutputFolder::~OutputFolder() {
  std::error_code ignored;
  fs::remove_all(staging_, ignored);
}

void OutputFolder::add_inputs(const std::vector<std::string>& inputs) {
  for (const std::string& name : planned_files_) refuse_over_input(option_, target_, name, inputs);
  inputs_.insert(inputs_.end(), inputs.begin(), inputs.end());
}

std::string OutputFolder::staged(const std::string& name) const {
  return (fs::path(staging_) / name).string();
}

std::string OutputFolder::final_path(const std::string& name) const {
  return (fs::path(target_) / name).string();
}

std::string OutputFolder::shown(std::string text) const {
  for (std::size_t at = text.find(staging_); at != std::string::npos; at = text.find(staging_, at + target_.size())) {
    text.replace(at, staging_.size(), target_);
  }
  return text;
}

std::vector<std::string> OutputFolder::staged_names() const {
  std::vector<std::string> names;
  for (const auto& entry : fs::recursive_directory_iterator(staging_)) {
    if (!entry.is_directory()) names.push_back(fs::relative(entry.path(), staging_).string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::optional<std::string> OutputFolder::first_non_finite() const {
  for (const std::string& name : staged_names()) {
    if (fs::path(name).extension() != ".csv") continue;
    if (const auto where = first_non_finite_csv(read_whole(fs::path(staging_) / name))) {
      return final_path(name) + " " + *where;
    }
  }
  return std::nullopt;
}

std::vector<std::string> OutputFolder::commit() {
  const std::vector<std::string> names = staged_names();
  for (const std::string& name : names) refuse_over_input(option_, target_, name, inputs_);
  if (const auto bad = first_non_finite()) {
    throw std::runtime_error("the result " + *bad + " is not a finite number (nothing was written)");
  }
  std::vector<StagedMove> moves;
  for (const std::string& name : names) moves.push_back({staged(name), final_path(name)});
  std::error_code error_code;
  const bool target_existed = fs::exists(target_, error_code);
  fs::create_directories(target_, error_code);  // even when nothing was staged: the command's folder exists
  if (error_code) {
    throw std::runtime_error(option_ + " " + target_ + ": cannot create the folder: " + error_code.message());
  }
  try {
    commit_staged_files(moves);
  } catch (const std::exception& error) {
    if (!target_existed) fs::remove(target_, error_code);  // only if empty: what commit created
    throw std::runtime_error(option_ + " " + target_ + ": " + error.what());
  }
  return names;
}

}  // namespace ergon
