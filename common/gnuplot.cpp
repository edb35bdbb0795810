#include "common/gnuplot.hpp"

#include <cstdlib>
#include <filesystem>

namespace ergon {
namespace {

std::string shell_quoted(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace

std::string gnuplot_string(const std::string& text) {
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '\n') {
      quoted += "\\n";
    } else {
      if (c == '"' || c == '\\') quoted += '\\';
      quoted += c;
    }
  }
  return quoted + "\"";
}

bool run_gnuplot(const std::string& dir, const std::string& script) {
  if (std::system("command -v gnuplot > /dev/null 2>&1") != 0) return false;
  // gnuplot writes its images in a staging folder (data files are found through loadpath); only finished
  // images are renamed into `dir`, so an interrupted or failed plot never leaves a half-written one.
  const std::filesystem::path staging = std::filesystem::path(dir) / ".plots.tmp";
  std::error_code ignored;
  std::filesystem::remove_all(staging, ignored);
  std::filesystem::create_directories(staging);
  const std::string command = "cd " + shell_quoted(staging.string()) + " && gnuplot -e \"set loadpath '..'\" " +
                              shell_quoted("../" + script) + " 2> " + shell_quoted("../" + script + ".log");
  const bool plotted = std::system(command.c_str()) == 0;
  if (plotted) {
    for (const auto& image : std::filesystem::directory_iterator(staging)) {
      std::filesystem::rename(image.path(), std::filesystem::path(dir) / image.path().filename());
    }
  }
  std::filesystem::remove_all(staging, ignored);
  return plotted;
}

}  // namespace ergon
