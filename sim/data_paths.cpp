#include "sim/data_paths.hpp"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace ergon {

namespace {

bool holds_data(const std::filesystem::path& folder) {
  std::error_code error;
  return std::filesystem::is_directory(folder / "configs", error);
}

std::filesystem::path beside_executable() {
  std::error_code error;
  const std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return {};
  return (executable.parent_path() / ".." / "share" / "ergon").lexically_normal();
}

const char* data_dir_variable() {
  const char* variable = std::getenv("ERGON_DATA_DIR");
  return variable != nullptr && *variable != '\0' ? variable : nullptr;
}

// Where the data should be; not checked (default option values are computed before any command runs).
std::string data_dir_candidate() {
  if (const char* variable = data_dir_variable()) return variable;
  return beside_executable().string();
}

}  // namespace

void check_data_dir_variable() {
  const char* variable = data_dir_variable();
  if (variable != nullptr && !holds_data(variable)) {
    throw std::runtime_error(std::string("ERGON_DATA_DIR=") + variable +
                             " has no configs/ folder; point it at the folder that holds configs/, power/, "
                             "workloads/ and reference/, or unset it");
  }
}

std::string shipped_data_dir() {
  check_data_dir_variable();
  const std::string folder = data_dir_candidate();
  if (holds_data(folder)) return folder;
  throw std::runtime_error("cannot find Ergon's data (configs/, power/, workloads/, reference/) in " + folder +
                           "; set ERGON_DATA_DIR to the folder that holds them");
}

std::string default_config_path() {
  return data_dir_candidate() + "/configs/eyeriss.yaml";
}

std::string shown_data_path(const std::string& path) {
  std::error_code error;
  const std::filesystem::path file = std::filesystem::weakly_canonical(path, error);
  if (error) return path;
  // Each shipped folder on its own: in a build tree they are links into the source tree.
  for (const char* folder : {"configs", "power", "workloads", "reference"}) {
    const std::filesystem::path shipped =
        std::filesystem::weakly_canonical(std::filesystem::path(data_dir_candidate()) / folder, error);
    if (error) continue;
    const std::filesystem::path relative = file.lexically_relative(shipped);
    if (!relative.empty() && *relative.begin() != "..") return (std::filesystem::path(folder) / relative).string();
  }
  return path;
}

std::string energy_table_path(const AcceleratorConfig& config) {
  const std::string& table = config.energy.table;
  const auto ends_with = [&](const std::string& suffix) {
    return table.size() > suffix.size() && table.compare(table.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  const bool is_path = ends_with(".yaml") || ends_with(".yml") || table.find('/') != std::string::npos;
  if (!is_path) return shipped_data_dir() + "/power/tables/" + table + ".yaml";
  const std::filesystem::path path(table);
  if (path.is_absolute()) return table;
  return (std::filesystem::path(config.file).parent_path() / path).string();
}

}  // namespace ergon
