#pragma once
// Where the shipped data lives and how names in configs resolve to files.
#include <string>

#include "arch/accelerator_config.hpp"

namespace ergon {

// The folder holding configs/, power/tables/, workloads/ and reference/: $ERGON_DATA_DIR when set, else
// ../share/ergon beside the executable (an installed tree, or the build tree's links). Throws, naming
// both places, when neither holds configs/.
std::string shipped_data_dir();
// Throws when ERGON_DATA_DIR is set but holds no configs/ folder.
void check_data_dir_variable();
std::string default_config_path();  // configs/eyeriss.yaml
// A path as a report shows it: a shipped file as `configs/eyeriss.yaml` (relative to the data folder, so that
// the same report reads the same on every machine), any other path as given.
std::string shown_data_path(const std::string& path);
// A table name ("cnnergy_65nm") resolves to power/tables/<name>.yaml; a value ending in .yaml is a
// path, relative to the config file's folder.
std::string energy_table_path(const AcceleratorConfig& config);

}  // namespace ergon
