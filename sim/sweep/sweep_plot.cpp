#include "sim/sweep/sweep_plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

#include "common/atomic_file.hpp"
#include "common/gnuplot.hpp"
#include "sim/sweep/sweep_results.hpp"

namespace ergon {
namespace {

const char* kComponents[] = {"MAC", "RF", "NoC", "GLB", "DRAM", "clock", "control", "leakage"};
// The same components in words, for the legend.
const char* kComponentLegends[] = {"MAC units", "register files (RF)", "network on chip (NoC)", "global buffer (GLB)",
                                   "DRAM",      "clock tree",          "control logic",         "leakage"};
constexpr std::size_t kComponentCount = 8;

struct EnergyPoint {
  double value = 0;
  double component_uj[kComponentCount] = {};
  double total_uj = 0;
};

// What a swept config key sets, in words; the key itself when it has no entry here.
std::string key_words(const std::string& key) {
  static const std::map<std::string, std::string> words = {
      {"glb.size_kib", "global buffer size"},        {"glb.filter_size_kib", "global buffer filter space"},
      {"glb.banks", "global buffer banks"},          {"clock.frequency_mhz", "compute clock"},
      {"clock.voltage_v", "compute supply voltage"}, {"dram.bandwidth_gbps", "DRAM bandwidth"},
      {"dram.latency_ns", "DRAM access latency"},    {"pe_array.rows", "PE array rows"},
      {"pe_array.cols", "PE array columns"},         {"pe_array.word_bits", "word width"}};
  const auto known = words.find(key);
  return known == words.end() ? key : known->second;
}

// The x axis: the key in words and the key itself (what to pass to --param), with its unit from the key's
// suffix (config keys carry their unit in their name), e.g. "global buffer size, glb.size_kib (KiB)".
std::string axis_label(const std::string& key) {
  static const std::vector<std::pair<std::string, std::string>> units = {
      {"_kib", "KiB"}, {"_mib", "MiB"},   {"_bytes", "bytes"}, {"_bits", "bits"},   {"_mhz", "MHz"},
      {"_ghz", "GHz"}, {"_gbps", "GB/s"}, {"_ns", "ns"},       {"_us", "us"},       {"_v", "V"},
      {"_mw", "mW"},   {"_w", "W"},       {"_pj", "pJ"},       {"_words", "words"}, {"_entries", "entries"}};
  std::string label = key_words(key) == key ? key : key_words(key) + ", " + key;
  for (const auto& [suffix, unit] : units) {
    if (key.size() > suffix.size() && key.compare(key.size() - suffix.size(), suffix.size(), suffix) == 0) {
      return label + " (" + unit + ")";
    }
  }
  return label;
}

// "alexnet on eyeriss (pe_array.word_bits=8)": the config and the --set overrides every point shares, from
// the sweep's manifest; just the workload when the manifest cannot be read.
std::string plot_subject(const std::string& out_dir, const std::string& workload) {
  std::ifstream in(out_dir + "/sweep.json");
  const nlohmann::json manifest = nlohmann::json::parse(in, nullptr, false);
  if (manifest.is_discarded() || !manifest.contains("config")) return workload;
  std::string subject =
      workload + " on " + std::filesystem::path(manifest["config"].get<std::string>()).stem().string();
  std::string overrides;
  for (const auto& o : manifest.value("overrides", nlohmann::json::array())) {
    overrides += (overrides.empty() ? "" : ", ") + o.get<std::string>();
  }
  return overrides.empty() ? subject : subject + " (" + overrides + ")";
}

// Stacked areas: each curve is the running sum of the components up to it, drawn from the top down, so
// the legend lists the components in the order they are stacked.
std::string gnuplot_script(const std::string& stem, const std::string& key, const std::string& subject, bool log_x) {
  std::string curves;
  for (std::size_t top = kComponentCount; top-- > 0;) {
    std::string sum;
    for (std::size_t c = 0; c <= top; ++c) sum += fmt::format("{}${}", c == 0 ? "" : "+", c + 2);
    curves += fmt::format("'{}.dat' using 1:({}) with filledcurves x1 title '{}'{}", stem, sum, kComponentLegends[top],
                          top == 0 ? "" : ", \\\n       ");
  }
  return fmt::format(R"(# Energy of {2} against {1}, stacked by component: `gnuplot {0}.gp`
set xlabel {3} noenhanced
set ylabel 'energy per run of the workload (uJ)'
set title {4} noenhanced
set key outside right top title 'component (top to bottom)'
set grid
{5}
set style fill solid 0.85 noborder
do for [out in "png svg"] {{
  if (out eq "png") {{ set terminal pngcairo size 1000,560 font ',10'; set output '{0}.png' }}
  else {{ set terminal svg size 1000,560 font ',10'; set output '{0}.svg' }}
  plot {6}
}}
)",
                     stem, key, subject, gnuplot_string(axis_label(key)),
                     gnuplot_string(subject + ": energy by component against " + key_words(key)),
                     log_x ? "set logscale x 2" : "", curves);
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
    write_file_atomically(out_dir + "/" + stem + ".gp",
                          gnuplot_script(stem, key, plot_subject(out_dir, workload), log_x));
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
