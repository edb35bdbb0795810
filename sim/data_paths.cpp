#include "sim/data_paths.hpp"

#include <filesystem>

namespace ergon {

std::string shipped_data_dir() {
  return ERGON_DATA_DIR;
}

std::string lahmer_parameters_path() {
  return shipped_data_dir() + "/reference/jetson/lahmer_2022_table3.yaml";
}

std::string default_config_path() {
  return shipped_data_dir() + "/configs/eyeriss.yaml";
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
