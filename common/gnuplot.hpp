#pragma once
// Renders a gnuplot script that an output folder holds (PNG/SVG), when gnuplot is installed; the scripts
// are written either way so a user can render them later. Messages go to <script>.log in the folder.
// Images appear whole or not at all (rendered in a staging folder, then renamed).
#include <string>

namespace ergon {

// True when gnuplot ran `script` in `dir` without error.
bool run_gnuplot(const std::string& dir, const std::string& script);

}  // namespace ergon
