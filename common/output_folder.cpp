#include "common/output_folder.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "common/input_error.hpp"
#include "common/interrupt_cleanup.hpp"
#include "common/output_paths.hpp"

namespace ergon {
namespace fs = std::filesystem;

namespace {

// In the nearest folder that exists on the way to the target, so a failed run creates no parent folders
// either; on the target's file system, so commit() renames rather than copies.
std::string staging_path_for(const std::string& target) {
  fs::path path = fs::path(target).lexically_normal();
  if (path.filename().empty()) path = path.parent_path();  // "results/" names "results"
  const std::string name = "." + path.filename().string() + ".staging." + std::to_string(::getpid());
  fs::path existing = path.parent_path();
  std::error_code error;
  while (!existing.empty() && !fs::is_directory(existing, error)) existing = existing.parent_path();
  return (existing / name).string();
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

std::vector<std::string> OutputFolder::commit() {
  std::vector<std::string> names;
  for (const auto& entry : fs::recursive_directory_iterator(staging_)) {
    if (!entry.is_directory()) names.push_back(fs::relative(entry.path(), staging_).string());
  }
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) refuse_over_input(option_, target_, name, inputs_);
  std::error_code made;
  fs::create_directories(target_, made);
  if (made) throw std::runtime_error(option_ + " " + target_ + ": cannot create the folder: " + made.message());
  for (const std::string& name : names) {
    const fs::path destination = fs::path(target_) / name;
    fs::create_directories(destination.parent_path());
    std::error_code error;
    fs::rename(fs::path(staging_) / name, destination, error);
    if (error) {
      throw std::runtime_error(option_ + " " + target_ + ": cannot move " + name + " into place: " + error.message());
    }
  }
  return names;
}

}  // namespace ergon
