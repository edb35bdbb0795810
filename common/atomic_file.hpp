#pragma once
// Outputs are written to a temporary file beside the target and renamed into place, so a reader never
// sees a half-written file and an interrupted run never destroys a finished one.
#include <string>

namespace ergon {

void write_file_atomically(const std::string& path, const std::string& content);

// Writes `content` to the file at `open_path` (created or truncated); a failure is a std::runtime_error
// naming `shown_path` and saying why (write_error_message).
void write_whole_file(const std::string& open_path, const std::string& shown_path, const std::string& content);

// "cannot write PATH: the disk is full (No space left on device)" for the errno of a failed write.
std::string write_error_message(const std::string& shown_path, int error_number);

}  // namespace ergon
