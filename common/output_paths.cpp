#include "common/output_paths.hpp"

#include <filesystem>

namespace ergon {
namespace {

std::optional<std::filesystem::path> resolved(const std::string& path) {
  if (path.empty()) return std::nullopt;
  std::error_code error;
  std::filesystem::path canonical = std::filesystem::weakly_canonical(path, error);
  if (error) return std::nullopt;
  return canonical;
}

// Hard links: two names, one file.
bool same_existing_file(const std::filesystem::path& output, const std::optional<std::filesystem::path>& input) {
  std::error_code error;
  return input && std::filesystem::equivalent(output, *input, error) && !error;
}

}  // namespace

std::optional<OutputOverInput> find_output_over_input(const std::vector<std::string>& outputs,
                                                      const std::vector<std::string>& inputs) {
  std::vector<std::optional<std::filesystem::path>> resolved_inputs;
  for (const std::string& input : inputs) resolved_inputs.push_back(resolved(input));
  for (const std::string& output : outputs) {
    const auto out = resolved(output);
    if (!out) continue;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      if (resolved_inputs[i] == out || same_existing_file(*out, resolved_inputs[i])) {
        return OutputOverInput{output, inputs[i]};
      }
    }
  }
  return std::nullopt;
}

}  // namespace ergon
