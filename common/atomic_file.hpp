#pragma once
// Outputs are written to a temporary file beside the target and renamed into place, so a reader never
// sees a half-written file and an interrupted run never destroys a finished one.
#include <string>

namespace ergon {

void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace ergon
