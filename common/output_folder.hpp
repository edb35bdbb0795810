#pragma once
// A command's --out folder, written all at once or not at all. Files are written into a staging folder
// beside the target (`.NAME.staging.HOST.PID`); commit() moves them into the target, creating it. A command
// that fails (or is interrupted: common/interrupt_cleanup) leaves neither the staging folder nor an
// empty target behind, and earlier files in the target are untouched. No file is ever moved over one
// of the command's inputs: the planned names are checked when the folder is opened, every staged file
// again at commit. Staging folders left by processes that no longer exist (killed outright) are cleared
// when a later command stages beside them.
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ergon {

class CleanupOnInterrupt;

class OutputFolder {
 public:
  // `option` names the output's option in messages ("--out"). `planned_files` are the names the command
  // may write, relative to the folder; `inputs` every file the command reads.
  OutputFolder(std::string target, std::string option, const std::vector<std::string>& planned_files,
               std::vector<std::string> inputs);
  ~OutputFolder();
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;

  const std::string& target() const { return target_; }
  // Inputs found once the first ones are read (e.g. the energy table a config names): checked against the
  // planned names now and at commit.
  void add_inputs(const std::vector<std::string>& inputs);
  // Where to write `name` (relative to the folder) before commit().
  std::string staged(const std::string& name) const;
  // The staging folder itself, for code that writes its own files into a folder.
  const std::string& staging_folder() const { return staging_; }
  // Where `name` is once committed, for messages.
  std::string final_path(const std::string& name) const;
  // `text` with the staging folder's path replaced by the target's: for messages made by code that wrote
  // into staging_folder() and named the files it wrote.
  std::string shown(std::string text) const;
  // The first value of a staged CSV that is not a finite number, as "DIR/a.csv line 3, column x ('nan')":
  // for commands that must report rather than throw (common/finite_json). commit() refuses such a file.
  std::optional<std::string> first_non_finite() const;
  // Moves every staged file into the target, all or nothing (common/staged_commit): when one cannot be
  // moved, every file in the target is as it was. Returns the names moved, sorted.
  std::vector<std::string> commit();

 private:
  std::vector<std::string> staged_names() const;  // sorted, relative to the folder

  std::string target_, option_, staging_;
  std::vector<std::string> planned_files_;
  std::vector<std::string> inputs_;
  std::unique_ptr<CleanupOnInterrupt> cleanup_;
};

// The checks every --out folder gets before any work: not empty, not an existing file. Throws an
// InputError-style message naming `option`.
void check_output_folder_option(const std::string& target, const std::string& option);

}  // namespace ergon
