#pragma once
// Renders a gnuplot script that an output folder holds (PNG/SVG), when gnuplot is installed; the scripts
// are written either way so a user can render them later. Messages go to <script>.log in the folder.
// Images appear whole or not at all (rendered in a staging folder, then renamed).
#include <string>

namespace ergon {

// True when gnuplot ran `script` in `dir` without error.
bool run_gnuplot(const std::string& dir, const std::string& script);

// `text` as a double-quoted gnuplot string: quotes and backslashes escaped, a newline as \n (a second title
// line). Names from inputs (workloads, configs) go through it, so a quote in a name cannot break a script.
std::string gnuplot_string(const std::string& text);

}  // namespace ergon
