#pragma once
// The one check behind "no output ever replaces an input": whether a path a command is about to write
// is, once links and `..` are resolved, one of the files it reads. Each command words its own refusal.
#include <optional>
#include <string>
#include <vector>

namespace ergon {

struct OutputOverInput {
  std::string output, input;  // as the caller gave them
};

// The first output that resolves to one of the inputs, or nullopt. Empty paths, and paths that cannot be
// resolved, are skipped: writing to them reports the problem.
std::optional<OutputOverInput> find_output_over_input(const std::vector<std::string>& outputs,
                                                      const std::vector<std::string>& inputs);

}  // namespace ergon
