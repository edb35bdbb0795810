#pragma once
// Where the shipped data lives and how names in configs resolve to files.
#include <string>
#include <vector>

#include "arch/accelerator_config.hpp"

namespace ergon {

// The folder holding configs/, power/tables/, workloads/ and reference/: $ERGON_DATA_DIR when set, else
// ../share/ergon beside the executable (an installed tree, or the build tree's links). Throws, naming
// both places, when neither holds configs/.
std::string shipped_data_dir();
// Throws when ERGON_DATA_DIR is set but holds no configs/ folder.
void check_data_dir_variable();
std::string default_config_path();  // configs/eyeriss.yaml

// The shipped parts a user can name instead of giving a path (docs/cli.md, "Shipped parts by name").
enum class ShippedPart { kConfig, kWorkload };
struct ShippedFile {
  std::string name;  // as a user types it: "eyeriss", "alexnet", "cnnergy/alexnet"
  std::string path;  // the file under the data folder
};
// Every shipped file of that kind, sorted by name; empty when the data folder cannot be found.
std::vector<ShippedFile> shipped_files(ShippedPart part);
// A path as given when it names a file; else the shipped file it names: "eyeriss" or "configs/eyeriss.yaml"
// (as from the source tree) becomes <data>/configs/eyeriss.yaml. Returns the path as given when nothing
// matches, so the caller reports the missing file; why_not_shipped says what was looked for.
std::string resolve_shipped(ShippedPart part, const std::string& name_or_path);
// For a name that resolve_shipped left unresolved: the shipped names, and the closest ones to suggest.
std::string why_not_shipped(ShippedPart part, const std::string& name_or_path);
// "eyeriss" for the default config's path, a shipped file's name for its path, any other path as given.
std::string shown_shipped_name(ShippedPart part, const std::string& path);
// A path as a report shows it: a shipped file as `configs/eyeriss.yaml` (relative to the data folder, so that
// the same report reads the same on every machine), any other path as given.
std::string shown_data_path(const std::string& path);
// A table name ("cnnergy_65nm") resolves to power/tables/<name>.yaml; a value ending in .yaml is a
// path, relative to the config file's folder.
std::string energy_table_path(const AcceleratorConfig& config);

}  // namespace ergon
