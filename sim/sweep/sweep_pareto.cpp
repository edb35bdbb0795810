#include "sim/sweep/sweep_pareto.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>

#include "common/atomic_file.hpp"
#include "common/gnuplot.hpp"
#include "common/input_error.hpp"
#include "common/text.hpp"
#include "sim/sweep/sweep_plot.hpp"
#include "sim/sweep/sweep_results.hpp"

namespace ergon {
namespace {

constexpr const char* kAreaColumn = "area_mm2";

// The columns a front is read from, by name; area's only when the header has it.
struct FrontColumns {
  std::size_t point = 0, workload = 0, layer = 0;
  std::vector<std::size_t> objectives;
  std::optional<std::size_t> area;
};

FrontColumns front_columns(const std::vector<std::string>& header, const std::string& path) {
  FrontColumns columns;
  columns.point = column_named(header, "point", path);
  columns.workload = column_named(header, "workload", path);
  columns.layer = column_named(header, "layer", path);
  columns.objectives = {column_named(header, "time_ns", path), column_named(header, "total_pj", path)};
  const auto area = std::find(header.begin(), header.end(), kAreaColumn);
  if (area != header.end()) columns.area = static_cast<std::size_t>(area - header.begin());
  return columns;
}

double number_at(const CsvRow& row, std::size_t column, const std::vector<std::string>& header,
                 const std::string& path) {
  const std::string cell = column < row.fields.size() ? row.fields[column] : "";
  const std::optional<double> value = parse_finite_number(cell);
  if (!value) {
    throw InputError({path, row.line, 0, {}}, header.at(column),
                     "'" + cell.substr(0, 40) + "' in a total row is not a number; was the file edited?");
  }
  return *value;
}

// Each workload's points sorted by their objectives (lexicographically): no point can be dominated by one
// after it, so a point is on the front unless one already on it dominates it (a point dominated by a
// dominated point is dominated by what dominates that one too).
void mark_front(std::vector<SweepParetoPoint>& points) {
  std::map<std::string, std::vector<SweepParetoPoint*>> by_workload;
  for (SweepParetoPoint& point : points) by_workload[point.workload].push_back(&point);
  for (auto& [workload, members] : by_workload) {
    std::stable_sort(members.begin(), members.end(), [](const SweepParetoPoint* a, const SweepParetoPoint* b) {
      return a->objectives < b->objectives;
    });
    std::vector<const SweepParetoPoint*> front;
    for (SweepParetoPoint* point : members) {
      point->on_front = std::none_of(front.begin(), front.end(), [&](const SweepParetoPoint* member) {
        return dominates(member->objectives, point->objectives);
      });
      if (point->on_front) front.push_back(point);
    }
  }
}

std::string read_bytes(std::ifstream& in, std::uint64_t offset, std::uint64_t length) {
  std::string bytes(length, '\0');
  in.seekg(static_cast<std::streamoff>(offset));
  in.read(bytes.data(), static_cast<std::streamsize>(length));
  return bytes;
}

std::string objective_words(const SweepParetoFront& front) {
  return front.objectives.size() == 3 ? "latency, energy and area" : "latency and energy";
}

// Block 0: every point (latency in ms, energy in uJ, its index); block 1: the front, by latency.
std::string plot_data(const std::vector<const SweepParetoPoint*>& points) {
  std::string all = "# latency_ms energy_uJ point (every point)\n", front = "# the Pareto front, by latency\n";
  std::vector<const SweepParetoPoint*> sorted = points;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const SweepParetoPoint* a, const SweepParetoPoint* b) { return a->objectives < b->objectives; });
  for (const SweepParetoPoint* p : sorted) {
    const std::string line =
        fmt::format("{:.9g} {:.9g} {}\n", p->objectives[0] / 1e6, p->objectives[1] / 1e6, p->index);
    all += line;
    if (p->on_front) front += line;
  }
  return all + "\n\n" + front;
}

std::string plot_script(const std::string& stem, const std::string& subject, const SweepParetoFront& front,
                        std::size_t on_front, std::size_t count) {
  const bool two_objectives = front.objectives.size() == 2;
  return fmt::format(R"(# Energy against latency of {1}, the Pareto front marked: `gnuplot {0}.gp`
set xlabel 'latency per run of the workload (ms)'
set ylabel 'energy per run of the workload (uJ)'
set title {2} noenhanced
set key outside right top
set grid
do for [out in "png svg"] {{
  if (out eq "png") {{ set terminal pngcairo size 1000,560 font ',10'; set output '{0}.png' }}
  else {{ set terminal svg size 1000,560 font ',10'; set output '{0}.svg' }}
  plot '{0}.dat' index 0 using 1:2 with points pt 7 ps 0.6 lc rgb '#999999' title 'every point', \
       '{0}.dat' index 1 using 1:2 with {3} pt 7 ps 1.3 lc rgb '#d62728' title {4}
}}
)",
                     stem, subject,
                     gnuplot_string(fmt::format("{}: energy against latency, {} of {} points on the Pareto front",
                                                subject, on_front, count)),
                     two_objectives ? "linespoints" : "points",
                     gnuplot_string("Pareto front (" + objective_words(front) + ")"));
}

}  // namespace

bool dominates(const std::vector<double>& a, const std::vector<double>& b) {
  bool better = false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] > b[i]) return false;
    better = better || a[i] < b[i];
  }
  return better;
}

SweepParetoFront sweep_pareto_front(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  CsvRowReader reader(in, path);
  CsvRow header;
  if (!reader.next(header)) throw InputError({path, 0, 0, {}}, "", "empty or unreadable");
  const FrontColumns columns = front_columns(header.fields, path);
  SweepParetoFront front;
  front.header_length = header.length;
  front.objectives = {"time_ns", "total_pj"};
  bool use_area = columns.area.has_value();
  for (CsvRow row; reader.next(row);) {
    if (columns.layer >= row.fields.size() || row.fields[columns.layer] != "total") continue;
    SweepParetoPoint point;
    point.index = static_cast<std::size_t>(number_at(row, columns.point, header.fields, path));
    point.workload = row.fields.at(columns.workload);
    for (std::size_t column : columns.objectives)
      point.objectives.push_back(number_at(row, column, header.fields, path));
    if (use_area) {
      const std::optional<double> area =
          parse_finite_number(row.fields.size() > *columns.area ? row.fields[*columns.area] : "");
      if (area) point.objectives.push_back(*area);
      if (!area) {
        front.area_left_out =
            fmt::format("{} is empty at point {}: area left out of the objectives", kAreaColumn, point.index);
        use_area = false;
      }
    }
    point.offset = row.offset;
    point.length = row.length;
    front.points.push_back(std::move(point));
  }
  if (use_area) front.objectives.push_back(kAreaColumn);
  for (SweepParetoPoint& point : front.points) point.objectives.resize(front.objectives.size());
  mark_front(front.points);
  return front;
}

std::string sweep_pareto_csv(const SweepParetoFront& front, const std::string& results_path) {
  std::ifstream in(results_path, std::ios::binary);
  std::string csv = read_bytes(in, 0, front.header_length);
  for (const SweepParetoPoint& point : front.points) {
    if (point.on_front) csv += read_bytes(in, point.offset, point.length);
  }
  if (!in) throw std::runtime_error("cannot read " + results_path);
  return csv;
}

std::vector<std::string> sweep_pareto_file_names(const std::string& workload) {
  const std::string stem = "pareto_" + workload_file_stem(workload);
  return {stem + ".dat", stem + ".gp", stem + ".png", stem + ".svg"};
}

std::string write_sweep_pareto(const std::string& out_dir) {
  const std::string results = out_dir + "/results.csv";
  const SweepParetoFront front = sweep_pareto_front(results);
  std::string summary = front.area_left_out.empty() ? "" : "pareto: " + front.area_left_out + "\n";
  std::map<std::string, std::vector<const SweepParetoPoint*>> by_workload;
  for (const SweepParetoPoint& point : front.points) by_workload[point.workload].push_back(&point);
  for (const auto& [workload, points] : by_workload) {
    const std::string stem = "pareto_" + workload_file_stem(workload);
    const auto on_front = static_cast<std::size_t>(
        std::count_if(points.begin(), points.end(), [](const SweepParetoPoint* p) { return p->on_front; }));
    write_file_atomically(out_dir + "/" + stem + ".dat", plot_data(points));
    write_file_atomically(out_dir + "/" + stem + ".gp",
                          plot_script(stem, plot_subject(out_dir, workload), front, on_front, points.size()));
    const bool plotted = run_gnuplot(out_dir, stem + ".gp");
    summary +=
        fmt::format("{}: {} of {} points on the Pareto front ({}); plot {}{}\n", workload, on_front, points.size(),
                    objective_words(front), stem, plotted ? ".png/.svg" : ".gp (install gnuplot)");
  }
  write_file_atomically(out_dir + "/" + kParetoCsv, sweep_pareto_csv(front, results));
  return summary + "wrote " + out_dir + "/" + kParetoCsv + "\n";
}

}  // namespace ergon
