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
  std::string series;                // the --plot-by key's value, as results.csv holds it
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

}  // namespace

// The config and the --set overrides every point shares, from the sweep's manifest.
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

namespace {

// Stacked areas: each curve is the running sum of the components up to it, drawn from the top down, so
// the legend lists the components in the order they are stacked.
std::string stacked_script(const std::string& stem, const std::string& key, const std::string& subject, bool log_x,
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

// Each workload's total rows: the plotted keys' values and the energy by component, read by column name.
std::map<std::string, std::vector<EnergyPoint>> read_totals(const std::string& path, const PlotKeys& keys,
                                                            const std::vector<std::string>& components) {
  std::ifstream in(path, std::ios::binary);
  CsvRowReader reader(in, path);
  CsvRow header;
  if (!reader.next(header)) throw InputError({path, 0, 0, {}}, "", "empty or unreadable");
  const std::size_t workload = column_named(header.fields, "workload", path);
  const std::size_t value = column_named(header.fields, keys.x, path);
  const std::size_t series = keys.series.empty() ? 0 : column_named(header.fields, keys.series, path);
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
    if (!keys.series.empty()) point.series = series < row.fields.size() ? row.fields[series] : "";
    for (std::size_t column : energy) point.component_uj.push_back(number_in(row, column, header, path) / 1e6);
    point.total_uj = number_in(row, total, header, path) / 1e6;
    totals[row.fields[workload]].push_back(point);
  }
  return totals;
}

std::string file_stem(const std::string& workload) {
  return "energy_" + workload_file_stem(workload);
}

// The x axis is log2 when its values span a factor of 16 or more.
bool wants_log_x(const std::vector<EnergyPoint>& points) {
  const auto [low, high] =
      std::minmax_element(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.value < b.value; });
  return low->value > 0 && high->value / low->value >= 16;
}

// One key: the energy stacked by component; the least-energy value and the smallest within 2 % of it.
std::string plot_stacked(const std::string& out_dir, const std::string& workload, const std::string& key,
                         std::vector<EnergyPoint>& points, const std::vector<std::string>& components) {
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
  write_file_atomically(out_dir + "/" + stem + ".dat", data);
  write_file_atomically(out_dir + "/" + stem + ".gp",
                        stacked_script(stem, key, plot_subject(out_dir, workload), wants_log_x(points), components));
  const bool plotted = run_gnuplot(out_dir, stem + ".gp");
  const auto best = std::min_element(points.begin(), points.end(),
                                     [](const auto& a, const auto& b) { return a.total_uj < b.total_uj; });
  const auto within = std::find_if(points.begin(), points.end(),
                                   [&](const EnergyPoint& p) { return p.total_uj <= best->total_uj * 1.02; });
  return fmt::format(
      "{}: least energy {:.2f} uJ at {}={}; smallest {} within 2% of it: {} ({:.2f} uJ, +{:.2f}%); plot {}{}\n",
      workload, best->total_uj, key, best->value, key, within->value, within->total_uj,
      100 * (within->total_uj / best->total_uj - 1), stem, plotted ? ".png/.svg" : ".gp (install gnuplot)");
}

// A line per value of the series key: the total energy against x, in columns 2, 3, ... of the data file.
std::string series_script(const std::string& stem, const PlotKeys& keys, const std::string& subject, bool log_x,
                          const std::vector<std::string>& series) {
  std::string curves;
  for (std::size_t i = 0; i < series.size(); ++i) {
    curves += fmt::format("'{}.dat' using 1:{} with linespoints title {}{}", stem, i + 2,
                          gnuplot_string(keys.series + "=" + series[i]), i + 1 == series.size() ? "" : ", \\\n       ");
  }
  return fmt::format(
      R"(# Total energy of {2} against {1}, a line per value of {3}: `gnuplot {0}.gp`
set xlabel {4} noenhanced
set ylabel 'energy per run of the workload (uJ)'
set title {5} noenhanced
set key outside right top title {6} noenhanced
set grid
set datafile missing '?'
{7}
do for [out in "png svg"] {{
  if (out eq "png") {{ set terminal pngcairo size 1000,560 font ',10'; set output '{0}.png' }}
  else {{ set terminal svg size 1000,560 font ',10'; set output '{0}.svg' }}
  plot {8}
}}
)",
      stem, keys.x, subject, keys.series, gnuplot_string(axis_label(keys.x)),
      gnuplot_string(subject + ": total energy against " + key_words(keys.x) + ", by " + key_words(keys.series)),
      gnuplot_string(keys.series), log_x ? "set logscale x 2" : "", curves);
}

// Two keys: the data file holds a row per x value and a column per series value ('?' where a point failed).
std::string plot_series(const std::string& out_dir, const std::string& workload, const PlotKeys& keys,
                        const std::vector<EnergyPoint>& points) {
  std::vector<std::string> series;  // in the order of the points: the --param's order
  std::map<double, std::map<std::string, double>> total_uj;
  for (const EnergyPoint& p : points) {
    if (std::find(series.begin(), series.end(), p.series) == series.end()) series.push_back(p.series);
    total_uj[p.value][p.series] = p.total_uj;
  }
  std::string data = "# " + keys.x;
  for (const std::string& value : series) data += " " + keys.series + "=" + value;
  data += "\n";
  for (const auto& [x, by_series] : total_uj) {
    data += fmt::format("{}", x);
    for (const std::string& value : series) {
      const auto found = by_series.find(value);
      data += found == by_series.end() ? std::string(" ?") : fmt::format(" {:.6g}", found->second);
    }
    data += "\n";
  }
  const std::string stem = file_stem(workload);
  write_file_atomically(out_dir + "/" + stem + ".dat", data);
  write_file_atomically(out_dir + "/" + stem + ".gp",
                        series_script(stem, keys, plot_subject(out_dir, workload), wants_log_x(points), series));
  const bool plotted = run_gnuplot(out_dir, stem + ".gp");
  const auto best = std::min_element(points.begin(), points.end(),
                                     [](const auto& a, const auto& b) { return a.total_uj < b.total_uj; });
  return fmt::format("{}: least energy {:.2f} uJ at {}={}, {}={}; plot {}{}\n", workload, best->total_uj, keys.x,
                     best->value, keys.series, best->series, stem, plotted ? ".png/.svg" : ".gp (install gnuplot)");
}

// A --plot-by key must be swept; the x key is the other swept key.
std::string other_key(const std::vector<SweepParameter>& parameters, const std::string& plot_by) {
  std::vector<std::string> keys;
  for (const SweepParameter& p : parameters) keys.push_back(p.key);
  if (std::find(keys.begin(), keys.end(), plot_by) == keys.end()) {
    throw UsageError("--plot-by " + plot_by + ": not a swept key; give one of " + join_alternatives(keys));
  }
  if (keys.size() != 2) {
    throw UsageError(
        fmt::format("--plot-by draws energy against one swept key, a line per value of another; this "
                    "sweep has {} swept keys",
                    keys.size()));
  }
  return keys[0] == plot_by ? keys[1] : keys[0];
}

}  // namespace

PlotKeys plot_keys(const std::vector<SweepParameter>& parameters, const std::string& plot_by) {
  PlotKeys keys;
  if (plot_by.empty()) {
    if (parameters.size() != 1) {
      throw UsageError(
          fmt::format("--plot draws energy against one swept key; this sweep has {} (--plot-by KEY "
                      "draws a line per value of a second one)",
                      parameters.size()));
    }
    keys.x = parameters.front().key;
  } else {
    keys.x = other_key(parameters, plot_by);
    keys.series = plot_by;
  }
  for (const SweepParameter& p : parameters) {
    if (p.key != keys.x) continue;
    for (const std::string& value : p.values) {
      if (!parse_finite_number(value)) {
        throw UsageError("--plot draws energy against a numeric key; --param " + p.key + " has the value '" + value +
                         "'");
      }
    }
  }
  return keys;
}

std::string workload_file_stem(const std::string& workload) {
  std::string stem;
  for (char c : workload) stem += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return stem;
}

std::vector<std::string> plot_file_names(const std::string& workload) {
  const std::string stem = file_stem(workload);
  return {stem + ".dat", stem + ".gp", stem + ".png", stem + ".svg"};
}

std::string plot_sweep(const std::string& out_dir, const PlotKeys& keys, const std::vector<std::string>& components) {
  std::string summary;
  for (auto& [workload, points] : read_totals(out_dir + "/results.csv", keys, components)) {
    summary += keys.series.empty() ? plot_stacked(out_dir, workload, keys.x, points, components)
                                   : plot_series(out_dir, workload, keys, points);
  }
  return summary;
}

std::vector<std::string> energy_components_in(const std::string& results_path) {
  std::ifstream in(results_path, std::ios::binary);
  CsvRowReader reader(in, results_path);
  CsvRow header;
  if (!reader.next(header)) throw InputError({results_path, 0, 0, {}}, "", "empty or unreadable");
  std::vector<std::string> components;
  const std::string suffix = "_pj";
  for (const std::string& column : header.fields) {
    if (column != "total_pj" && column.size() > suffix.size() &&
        column.compare(column.size() - suffix.size(), suffix.size(), suffix) == 0) {
      components.push_back(column.substr(0, column.size() - suffix.size()));
    }
  }
  return components;
}

std::vector<SweepParameter> manifest_parameters(const std::string& manifest_path) {
  std::ifstream in(manifest_path);
  const nlohmann::json manifest = nlohmann::json::parse(in, nullptr, false);
  const auto fail = [&] {
    throw InputError({manifest_path, 0, 0, {}}, "", "not a sweep manifest with 'parameters'; was it edited?");
  };
  if (manifest.is_discarded() || !manifest.is_object() || !manifest.contains("parameters") ||
      !manifest["parameters"].is_array()) {
    fail();
  }
  std::vector<SweepParameter> parameters;
  for (const nlohmann::json& p : manifest["parameters"]) {
    if (!p.is_object() || !p.contains("key") || !p["key"].is_string() || !p.contains("values") ||
        !p["values"].is_array()) {
      fail();
    }
    SweepParameter parameter{p["key"].get<std::string>(), {}, p["key"].get<std::string>()};
    for (const nlohmann::json& value : p["values"]) {
      if (!value.is_string()) fail();
      parameter.values.push_back(value.get<std::string>());
    }
    parameters.push_back(std::move(parameter));
  }
  return parameters;
}

}  // namespace ergon
