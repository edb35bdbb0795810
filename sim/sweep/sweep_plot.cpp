#include "sim/sweep/sweep_plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "common/atomic_file.hpp"
#include "common/gnuplot.hpp"
#include "common/input_error.hpp"
#include "common/text.hpp"
#include "sim/sweep/sweep_results.hpp"

namespace ergon {
namespace {

// The components in words, for the legend; a component not listed here is shown by its name.
std::string component_words(const std::string& component) {
  static const std::map<std::string, std::string> words = {{"mac", "MAC units"},
                                                           {"rf", "register files (RF)"},
                                                           {"noc", "network on chip (NoC)"},
                                                           {"glb", "global buffer (GLB)"},
                                                           {"dram", "DRAM"},
                                                           {"clock", "clock tree"},
                                                           {"control", "control logic"},
                                                           {"leakage", "leakage"}};
  const auto known = words.find(component);
  return known == words.end() ? component : known->second;
}

struct EnergyPoint {
  double value = 0;
  std::vector<double> component_uj;  // in the order of the plot's components
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
std::string gnuplot_script(const std::string& stem, const std::string& key, const std::string& subject, bool log_x,
                           const std::vector<std::string>& components) {
  std::string curves;
  for (std::size_t top = components.size(); top-- > 0;) {
    std::string sum;
    for (std::size_t c = 0; c <= top; ++c) sum += fmt::format("{}${}", c == 0 ? "" : "+", c + 2);
    curves += fmt::format("'{}.dat' using 1:({}) with filledcurves x1 title {}{}", stem, sum,
                          gnuplot_string(component_words(components[top])), top == 0 ? "" : ", \\\n       ");
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

double number_in(const CsvRow& row, std::size_t column, const CsvRow& header, const std::string& path) {
  const std::string cell = column < row.fields.size() ? row.fields[column] : "";
  const std::optional<double> value = parse_finite_number(cell);
  if (!value) {
    throw InputError({path, row.line, 0, {}}, header.fields[column],
                     "'" + cell.substr(0, 40) + "' in a total row is not a number; was the file edited?");
  }
  return *value;
}

// Each workload's total rows: the swept value and the energy by component, read by column name.
std::map<std::string, std::vector<EnergyPoint>> read_totals(const std::string& path, const std::string& key,
                                                            const std::vector<std::string>& components) {
  std::ifstream in(path, std::ios::binary);
  CsvRowReader reader(in, path);
  CsvRow header;
  if (!reader.next(header)) throw InputError({path, 0, 0, {}}, "", "empty or unreadable");
  const std::size_t workload = column_named(header.fields, "workload", path);
  const std::size_t value = column_named(header.fields, key, path);
  const std::size_t layer = column_named(header.fields, "layer", path);
  const std::size_t total = column_named(header.fields, "total_pj", path);
  std::vector<std::size_t> energy;
  for (const std::string& component : components)
    energy.push_back(column_named(header.fields, component + "_pj", path));
  std::map<std::string, std::vector<EnergyPoint>> totals;
  for (CsvRow row; reader.next(row);) {
    if (layer >= row.fields.size() || row.fields[layer] != "total") continue;
    EnergyPoint point;
    point.value = number_in(row, value, header, path);
    for (std::size_t column : energy) point.component_uj.push_back(number_in(row, column, header, path) / 1e6);
    point.total_uj = number_in(row, total, header, path) / 1e6;
    totals[row.fields[workload]].push_back(point);
  }
  return totals;
}

std::string file_stem(const std::string& workload) {
  std::string stem = "energy_";
  for (char c : workload) stem += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return stem;
}

}  // namespace

std::vector<std::string> plot_file_names(const std::string& workload) {
  const std::string stem = file_stem(workload);
  return {stem + ".dat", stem + ".gp", stem + ".png", stem + ".svg"};
}

std::string plot_sweep(const std::string& out_dir, const SweepGrid& grid, const std::vector<std::string>& components) {
  const std::string& key = grid.parameters().at(0).key;
  std::string summary;
  for (auto& [workload, points] : read_totals(out_dir + "/results.csv", key, components)) {
    std::sort(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.value < b.value; });
    std::string data = fmt::format("# {}", key);
    for (const std::string& component : components) data += fmt::format(" {}_uJ", component);
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
                          gnuplot_script(stem, key, plot_subject(out_dir, workload), log_x, components));
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
