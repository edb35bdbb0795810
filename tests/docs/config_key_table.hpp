#pragma once
// docs/config.md's key table (the lines of the table under "## Keys"), for the tests that hold it to the schema.
#include <fstream>
#include <sstream>
#include <string>

#include "tests/test_paths.hpp"

namespace ergon::test {

inline std::string documented_config_key_table() {
  std::ifstream file(source_dir() + "/docs/config.md");
  std::string line, table;
  bool in_keys = false;
  while (std::getline(file, line)) {
    if (line.rfind("## ", 0) == 0) in_keys = line == "## Keys";
    if (!in_keys) continue;
    if (line.rfind("|", 0) == 0) {
      table += line + "\n";
    } else if (!table.empty()) {
      break;  // the first table of the section ended
    }
  }
  return table;
}

}  // namespace ergon::test
