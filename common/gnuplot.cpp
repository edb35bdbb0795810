#include "common/gnuplot.hpp"

#include <cstdlib>

namespace ergon {
namespace {

std::string shell_quoted(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace

bool run_gnuplot(const std::string& dir, const std::string& script) {
  if (std::system("command -v gnuplot > /dev/null 2>&1") != 0) return false;
  const std::string command =
      "cd " + shell_quoted(dir) + " && gnuplot " + shell_quoted(script) + " 2> " + shell_quoted(script + ".log");
  return std::system(command.c_str()) == 0;
}

}  // namespace ergon
