#include "sim/data_paths.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "common/text.hpp"

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

namespace {

const char* shipped_folder(ShippedPart part) {
  return part == ShippedPart::kConfig ? "configs" : "workloads";
}
const char* shipped_kind(ShippedPart part) {
  return part == ShippedPart::kConfig ? "config" : "workload";
}

bool is_shipped_extension(const std::filesystem::path& file, ShippedPart part) {
  const std::string extension = file.extension().string();
  return extension == ".yaml" || (part == ShippedPart::kWorkload && extension == ".onnx");
}

bool is_existing_file(const std::filesystem::path& path) {
  std::error_code error;
  return std::filesystem::is_regular_file(path, error);
}

}  // namespace

std::vector<ShippedFile> shipped_files(ShippedPart part) {
  const std::filesystem::path folder = std::filesystem::path(data_dir_candidate()) / shipped_folder(part);
  std::vector<ShippedFile> files;
  std::error_code error;
  for (auto entry = std::filesystem::recursive_directory_iterator(folder, error);
       !error && entry != std::filesystem::recursive_directory_iterator(); entry.increment(error)) {
    if (!is_existing_file(entry->path()) || !is_shipped_extension(entry->path(), part)) continue;
    std::filesystem::path name = entry->path().lexically_relative(folder);
    name.replace_extension();
    files.push_back({name.generic_string(), entry->path().string()});
  }
  std::sort(files.begin(), files.end(), [](const ShippedFile& a, const ShippedFile& b) { return a.name < b.name; });
  return files;
}

std::string resolve_shipped(ShippedPart part, const std::string& name_or_path) {
  const std::filesystem::path given(name_or_path);
  if (name_or_path.empty() || given.is_absolute()) return name_or_path;
  std::error_code error;
  if (std::filesystem::exists(std::filesystem::symlink_status(given, error))) return name_or_path;
  const std::filesystem::path data(data_dir_candidate());
  const std::filesystem::path folder = data / shipped_folder(part);
  // A name ("eyeriss", "cnnergy/alexnet"), a file name ("eyeriss.yaml") or a path as from the source tree
  // ("configs/eyeriss.yaml"): the same shipped file from any folder.
  for (const std::filesystem::path& candidate : {folder / (name_or_path + ".yaml"), folder / given, data / given}) {
    if (is_existing_file(candidate) && candidate.lexically_normal().string().rfind(folder.string(), 0) == 0) {
      return candidate.lexically_normal().string();
    }
  }
  return name_or_path;
}

std::string why_not_shipped(ShippedPart part, const std::string& name_or_path) {
  std::vector<std::string> names;
  for (const ShippedFile& file : shipped_files(part)) names.push_back(file.name);
  if (names.empty()) return "";
  std::string text = std::string("nor a shipped ") + shipped_kind(part) + " name";
  const std::string stem = std::filesystem::path(name_or_path).stem().string();
  if (const std::string closest = closest_match(stem, names); !closest.empty()) {
    return text + "; did you mean " + closest + "?";
  }
  text += " (";
  for (std::size_t i = 0; i < names.size(); ++i) text += (i ? ", " : "") + names[i];
  return text + "; `ergon " + shipped_folder(part) + "` lists them)";
}

std::string shown_shipped_name(ShippedPart part, const std::string& path) {
  for (const ShippedFile& file : shipped_files(part)) {
    if (file.path == path) return file.name;
  }
  return path;
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
