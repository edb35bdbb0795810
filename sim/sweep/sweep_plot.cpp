#include "sim/sweep/sweep_plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <vector>

#include "common/atomic_file.hpp"
#include "common/gnuplot.hpp"
#include "sim/sweep/sweep_results.hpp"

namespace ergon {
namespace {

const char* kComponents[] = {"MAC", "RF", "NoC", "GLB", "DRAM", "clock", "control", "leakage"};
constexpr std::size_t kComponentCount = 8;

struct EnergyPoint {
  double value = 0;
  double component_uj[kComponentCount] = {};
  double total_uj = 0;
};

// Stacked areas: each curve is the running sum of the components up to it, drawn from the top down.
std::string gnuplot_script(const std::string& stem, const std::string& key, const std::string& workload, bool log_x) {
  std::string curves;
  for (std::size_t top = kComponentCount; top-- > 0;) {
    std::string sum;
    for (std::size_t c = 0; c <= top; ++c) sum += fmt::format("{}${}", c == 0 ? "" : "+", c + 2);
    curves += fmt::format("'{}.dat' using 1:({}) with filledcurves x1 title '{}'{}", stem, sum, kComponents[top],
                          top == 0 ? "" : ", \\\n     ");
  }
  return fmt::format(R"(# Energy of {2} against {1}, stacked by component: `gnuplot {0}.gp`
set xlabel '{1}' noenhanced
set ylabel 'energy (uJ)'
set title 'Energy of {2} against {1}' noenhanced
set key outside right
set grid
{3}
set style fill solid 0.85 noborder
do for [out in "png svg"] {{
  if (out eq "png") {{ set terminal pngcairo size 1000,560 font ',10'; set output '{0}.png' }}
  else {{ set terminal svg size 1000,560 font ',10'; set output '{0}.svg' }}
  plot {4}
}}
)",
                     stem, key, workload, log_x ? "set logscale x 2" : "", curves);
}

std::map<std::string, std::vector<EnergyPoint>> read_totals(const std::string& results) {
  std::map<std::string, std::vector<EnergyPoint>> totals;
  std::ifstream in(results);
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    if (csv_field(line, 3) != "total") continue;  // point, workload, value, layer
    EnergyPoint point;
    point.value = std::stod(csv_field(line, 2));
    for (std::size_t c = 0; c < kComponentCount; ++c) point.component_uj[c] = std::stod(csv_field(line, 12 + c)) / 1e6;
    point.total_uj = std::stod(csv_field(line, 20)) / 1e6;
    totals[csv_field(line, 1)].push_back(point);
  }
  return totals;
}

std::string file_stem(const std::string& workload) {
  std::string stem = "energy_";
  for (char c : workload) stem += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return stem;
}

}  // namespace

std::string plot_sweep(const std::string& out_dir, const SweepGrid& grid) {
  const std::string& key = grid.parameters().at(0).key;
  std::string summary;
  for (auto& [workload, points] : read_totals(out_dir + "/results.csv")) {
    std::sort(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.value < b.value; });
    std::string data = fmt::format("# {}", key);
    for (const char* component : kComponents) data += fmt::format(" {}_uJ", component);
    data += "\n";
    for (const EnergyPoint& p : points) {
      data += fmt::format("{}", p.value);
      for (double uj : p.component_uj) data += fmt::format(" {:.6g}", uj);
      data += "\n";
    }
    const std::string stem = file_stem(workload);
    const bool log_x = points.front().value > 0 && points.back().value / points.front().value >= 16;
    write_file_atomically(out_dir + "/" + stem + ".dat", data);
    write_file_atomically(out_dir + "/" + stem + ".gp", gnuplot_script(stem, key, workload, log_x));
    const bool plotted = run_gnuplot(out_dir, stem + ".gp");
    const auto best = std::min_element(points.begin(), points.end(),
                                       [](const auto& a, const auto& b) { return a.total_uj < b.total_uj; });
    const auto within = std::find_if(points.begin(), points.end(),
                                     [&](const EnergyPoint& p) { return p.total_uj <= best->total_uj * 1.02; });
    summary += fmt::format(
        "{}: least energy {:.2f} uJ at {}={}; smallest {} within 2% of it: {} ({:.2f} uJ, +{:.2f}%); plot {}{}\n",
        workload, best->total_uj, key, best->value, key, within->value, within->total_uj,
        100 * (within->total_uj / best->total_uj - 1), stem, plotted ? ".png/.svg" : ".gp (install gnuplot)");
  }
  return summary;
}

}  // namespace ergon
