#include "sim/sweep/sweep_run.hpp"

#include <fmt/format.h>
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "arch/components.hpp"
#include "common/atomic_file.hpp"
#include "common/input_error.hpp"
#include "common/output_folder.hpp"
#include "common/output_paths.hpp"
#include "common/progress_display.hpp"
#include "common/text.hpp"
#include "network/importers/onnx_model.hpp"
#include "power/area_model.hpp"
#include "sim/data_paths.hpp"
#include "sim/parallel/interrupt.hpp"
#include "sim/parallel/process_pool.hpp"
#include "sim/run_pipeline.hpp"
#include "sim/run_report.hpp"
#include "sim/sweep/sweep_pareto.hpp"
#include "sim/sweep/sweep_plot.hpp"
#include "sim/sweep/sweep_results.hpp"

namespace ergon {
namespace {

// Each line of `text` to `to`; `text` as it is to `otherwise` when `to` is empty (the command line).
void say(const SweepMessage& to, std::ostream& otherwise, const std::string& text) {
  if (!to) {
    otherwise << text << std::flush;
    return;
  }
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) to(line);
}

// Every counter any point can register (a bank-level DRAM adds its own); a point's rows leave the cells of
// counters it did not register empty.
const std::vector<CounterSpec>& sweep_counters() {
  static const std::vector<CounterSpec> counters = every_module_counter_spec();
  return counters;
}

std::string results_header(const SweepGrid& grid) {
  std::string header = "point,workload";
  for (const std::string& key : grid.columns()) header += "," + csv_quoted(key);
  return header + ",layer,op,cycles,time_ns,stall_cycles,macs," + counter_columns(sweep_counters()) + "," +
         energy_columns(sweep_counters()) + "," + kAreaColumn + tensor_columns(sweep_counters()) + "\n";
}

// The columns in which a point's total row is the sum of its layer rows (Simulation adds the layers up):
// a point that lost a layer row no longer adds up, and the file is refused (--resume, sweep-merge).
std::vector<std::string> summed_columns() {
  std::vector<std::string> columns = {"cycles", "stall_cycles", "macs"};
  for (const CounterSpec& counter : sweep_counters()) columns.push_back(counter.column);
  return columns;
}

ResultsFormat results_format(const std::string& header, std::size_t points) {
  return {header, summed_columns(), points};
}

// The energy components of results.csv's <component>_pj columns, as --plot stacks them.
std::vector<std::string> energy_column_components() {
  std::vector<std::string> components = energy_components(sweep_counters());
  for (const char* overhead : {"clock", "control", "leakage"}) components.emplace_back(overhead);
  return components;
}

// `area`: the point's area_mm2 cell (run_report.hpp), the same on each of its rows.
std::string metric_row(const std::string& prefix, const LayerResult& l, const std::string& area) {
  return fmt::format("{},{},{},{},{},{},{},", prefix, csv_quoted(l.name), l.op, l.cycles, l.time_ns, l.stall_cycles,
                     l.macs) +
         counter_cells(l, sweep_counters()) + "," + energy_cells(l.energy, sweep_counters()) + "," + area +
         tensor_cells(l, sweep_counters()) + "\n";
}

// A config error in a swept value names the --param it came from, not the --set it is applied as; an error
// elsewhere that a swept value brought about (a buffer part no longer smaller than the swept size, say) keeps
// its place and names the sweep point. Called while `error` is being handled.
[[noreturn]] void rethrow_as_param(const InputError& error, const std::vector<std::string>& swept_assignments) {
  const std::string& label = error.location().override_text;
  const std::string what = error.what();  // "label: key.path: message" (InputError)
  const std::string prefix = InputError(error.location(), error.key_path(), "").what();
  if (what.rfind(prefix, 0) != 0) throw;  // not of the form above: the error as it was
  const std::string message = what.substr(prefix.size());
  for (const std::string& assignment : swept_assignments) {
    if (label != "--set " + assignment) continue;
    SourceLocation location = error.location();
    location.override_text = "--param " + assignment;
    throw InputError(location, error.key_path(), message);
  }
  std::string point;
  for (const std::string& assignment : swept_assignments) point += (point.empty() ? "" : " ") + assignment;
  throw InputError(error.location(), error.key_path(), message + " (at the sweep point " + point + ")");
}

// What the points read, parsed once before they run (the workers are forked from this process): the config
// file, the workloads (by grid.workloads() index) and the energy tables the swept values name (one that does
// not load is left to the points that name it, which then fail with its error).
struct SweepInputs {
  YAML::Node config_document;
  std::vector<Workload> workloads;
  std::map<std::string, EnergyTable> energy_tables;
};

// Loads the config of one point (or one value under check) from the config file parsed once, naming a swept
// value's --param in errors.
AcceleratorConfig load_point_config(const SweepOptions& options, const YAML::Node& config_document,
                                    const std::vector<std::string>& swept_assignments) {
  std::vector<std::string> overrides = options.overrides;
  overrides.insert(overrides.end(), swept_assignments.begin(), swept_assignments.end());
  try {
    return load_accelerator_config(config_document, options.config_path, overrides);
  } catch (const InputError& error) {
    rethrow_as_param(error, swept_assignments);
  }
}

// The run pipeline's write stage for a point: a row per executed layer and its total; "!" and the reason
// when a layer's simulated output differs from the reference.
std::string point_rows(const SimulationResult& result, const std::string& prefix, const std::string& area) {
  for (const LayerResult& layer : result.layers) {
    if (layer.output_mismatches > 0) {
      return fmt::format("!layer {}: the simulated output differs from the reference in {} values", layer.name,
                         layer.output_mismatches);
    }
  }
  std::string rows;
  for (const LayerResult& layer : result.layers) {
    if (layer.executed) rows += metric_row(prefix, layer, area);
  }
  return rows + metric_row(prefix, result.total, area);
}

// Simulates one point; its rows, or "!" and the reason it could not be simulated.
std::string simulate_point(const SweepOptions& options, const SweepInputs& inputs, const SweepGrid& grid,
                           std::size_t index) {
  const SweepPoint point = grid.point(index);
  try {
    AcceleratorConfig config = load_point_config(options, inputs.config_document, grid.overrides(point));
    const std::string table_path = energy_table_path(config);
    const auto loaded = inputs.energy_tables.find(table_path);
    const Chip chip = loaded != inputs.energy_tables.end() ? Chip(std::move(config), loaded->second)
                                                           : Chip(std::move(config), load_energy_table(table_path));
    const Workload& workload = inputs.workloads[point.workload];
    SimulationOptions simulation;
    simulation.fidelity = options.fidelity;
    simulation.batch = grid.batch(point);
    if (!simulation.batch && options.batch > 0) simulation.batch = options.batch;
    std::string prefix = fmt::format("{},{}", index, csv_quoted(workload.name()));
    for (const std::string& value : point.values) prefix += "," + value;
    std::string rows;
    const std::string area = area_cell(chip_area(chip.config(), chip.table()));
    run_pipeline(chip, workload, simulation,
                 [&](const SimulationResult& result) { rows = point_rows(result, prefix, area); });
    return rows;
  } catch (const std::exception& error) {
    return std::string("!") + error.what();
  }
}

// A point's mapper search builds candidate lists of megabytes and frees them; by default glibc hands such
// blocks back to the kernel at once and the next layer faults fresh zeroed pages in again (a fifth of a
// DS-CNN sweep's CPU time went to the kernel). Freed memory is kept for reuse instead: a worker then holds
// about its largest point's peak. Set before the workers are forked: they inherit it.
void keep_freed_memory_for_reuse() {
  constexpr int kMmapThresholdBytes = 32 << 20;  // glibc's largest
  constexpr int kTrimThresholdBytes = 512 << 20;
  mallopt(M_MMAP_THRESHOLD, kMmapThresholdBytes);
  mallopt(M_TRIM_THRESHOLD, kTrimThresholdBytes);
}

SweepGrid make_grid(const SweepOptions& options) {
  if (options.workload_paths.empty()) throw std::runtime_error("give at least one --workload");
  check_distinct_keys(options.parameters, options.overrides, options.links);
  return SweepGrid(options.workload_paths, options.parameters, options.links);
}

nlohmann::ordered_json manifest(const SweepOptions& options, const SweepGrid& grid) {
  nlohmann::ordered_json parameters = nlohmann::ordered_json::array();
  for (const SweepParameter& p : grid.parameters()) parameters.push_back({{"key", p.key}, {"values", p.values}});
  nlohmann::ordered_json manifest = {{"schema_version", 1},
                                     {"config", options.config_path},
                                     {"overrides", options.overrides},
                                     {"workloads", options.workload_paths},
                                     {"fidelity", fidelity_name(options.fidelity)}};
  if (options.batch > 0) manifest["batch"] = options.batch;  // only when given: earlier sweeps resume as they were
  manifest["parameters"] = parameters;
  if (!grid.links().empty()) manifest["links"] = links_manifest(grid);
  manifest["points"] = grid.size();
  manifest["shard"] = fmt::format("{}/{}", options.shard.index, options.shard.count);
  return manifest;
}

// Every value of every parameter must make a valid config before any point runs (a value at a time, the
// other parameters at their first values). Returns the energy tables those configs read.
std::vector<std::string> check_parameters(const SweepOptions& options, const YAML::Node& config_document,
                                          const SweepGrid& grid) {
  std::size_t value_count = 0, checked = 0;
  for (const SweepParameter& p : grid.parameters()) value_count += p.values.size();
  ProgressDisplay progress("checking the swept values", progress_shown());
  std::vector<std::string> energy_tables;
  for (std::size_t p = 0; p < grid.parameters().size(); ++p) {
    for (const std::string& value : grid.parameters()[p].values) {
      std::vector<std::string> values = grid.first_values();
      values[p] = value;
      const std::string table =
          energy_table_path(load_point_config(options, config_document, grid.config_assignments(values)));
      if (std::find(energy_tables.begin(), energy_tables.end(), table) == energy_tables.end()) {
        energy_tables.push_back(table);
      }
      if (progress.enabled()) {
        progress.update(static_cast<double>(++checked) / static_cast<double>(value_count),
                        fmt::format("{} of {} values", checked, value_count));
      }
    }
  }
  progress.finish(fmt::format("{} values", value_count));
  return energy_tables;
}

struct WorkloadSummary {
  std::string name;
  std::uint64_t layers = 0;
};

bool is_onnx_path(const std::string& path) {
  return path.size() > 5 && path.compare(path.size() - 5, 5, ".onnx") == 0;
}

// A workload as load_workload reads it; a model's import notes and warnings go to `note` (empty: dropped).
Workload load_sweep_workload(const std::string& path, const SweepMessage& note) {
  if (!is_onnx_path(path)) return load_workload(path);
  const OnnxImport imported = import_onnx(path, model_import_options());
  Workload workload = onnx_workload(imported, path);
  if (note) {
    for (const std::string& text : imported.notes) note("note: " + path + ": " + text);
    for (const std::string& text : imported.warnings) note("warning: " + path + ": " + text);
  }
  return workload;
}

// Every workload must load before any point runs.
std::vector<Workload> load_workloads(const SweepGrid& grid, const SweepMessage& note) {
  std::vector<Workload> workloads;
  for (const std::string& path : grid.workloads()) {
    workloads.push_back(load_sweep_workload(path, note));
    refuse_workload_without_work(workloads.back());
  }
  return workloads;
}

std::vector<WorkloadSummary> workload_summaries(const std::vector<Workload>& workloads) {
  std::vector<WorkloadSummary> summaries;
  for (const Workload& workload : workloads) summaries.push_back({workload.name(), workload.layers().size()});
  return summaries;
}

std::map<std::string, EnergyTable> load_energy_tables(const std::vector<std::string>& paths) {
  std::map<std::string, EnergyTable> tables;
  for (const std::string& path : paths) {
    try {
      tables.emplace(path, load_energy_table(path));
    } catch (const std::exception&) {  // each point naming it reports the error
    }
  }
  return tables;
}

class Progress {
 public:
  explicit Progress(std::size_t total) : total_(total), terminal_(::isatty(STDERR_FILENO) == 1) {}
  void finished(const std::string& what) {
    ++done_;
    if (!shown_) return;  // --quiet
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (!terminal_) {
      std::cerr << fmt::format("[{}/{}] {} ({:.1f} s)\n", done_, total_, what, seconds);
      return;
    }
    const std::size_t width = 30, filled = total_ == 0 ? width : width * done_ / total_;
    const double eta = done_ > 0 ? seconds * static_cast<double>(total_ - done_) / static_cast<double>(done_) : 0;
    std::cerr << fmt::format("\r[{}{}] {}/{} points, {:.1f} s, about {:.0f} s left ", std::string(filled, '#'),
                             std::string(width - filled, '.'), done_, total_, seconds, eta)
              << (done_ == total_ ? "\n" : "") << std::flush;
  }

 private:
  std::size_t total_, done_ = 0;
  bool terminal_;
  bool shown_ = progress_shown();
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

std::string point_label(const SweepGrid& grid, std::size_t index) {
  const SweepPoint point = grid.point(index);
  std::string label = fmt::format("point {} {}", index, grid.workloads()[point.workload]);
  const std::vector<std::string> keys = grid.columns();
  for (std::size_t i = 0; i < point.values.size(); ++i) label += " " + keys[i] + "=" + point.values[i];
  return label;
}

// Rewrites results.csv with its whole points in point order; returns how many there are.
std::size_t sort_results(const std::string& results, const SweepGrid& grid) {
  const auto points = index_results(results, results_format(results_header(grid), grid.size()));
  write_sorted_results(results, results_header(grid), {{results, points}});
  return points.size();
}

// The first of `inputs` changed after the sweep in `manifest_path` started (its sweep.json was written), if any.
std::optional<std::string> input_changed_since(const std::string& manifest_path,
                                               const std::vector<std::string>& inputs) {
  std::error_code error;
  const auto started = std::filesystem::last_write_time(manifest_path, error);
  if (error) return manifest_path;
  for (const std::string& input : inputs) {
    const auto changed = std::filesystem::last_write_time(input, error);
    if (error || changed > started) return input;
  }
  return std::nullopt;
}

// Opens results.csv for appending: a fresh file, or (with --resume) the finished points of the last run.
// `inputs` are the files the points read, which resume_unless_inputs_changed checks.
std::map<std::size_t, PointRows> prepare_results(const SweepOptions& options, const SweepGrid& grid,
                                                 const std::string& results, const std::string& manifest_path,
                                                 const std::vector<std::string>& inputs) {
  const std::string header = results_header(grid);
  const std::string wanted = manifest(options, grid).dump(2) + "\n";
  const bool exists = std::filesystem::exists(results);
  if (exists && !options.resume && !options.resume_unless_inputs_changed) {
    throw std::runtime_error(results + " exists: pass --resume to continue that sweep, or choose another --out");
  }
  std::map<std::size_t, PointRows> finished;
  if (exists) {
    std::ifstream in(manifest_path);
    const std::string previous((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (previous != wanted) {
      throw std::runtime_error(options.out_dir +
                               " holds a different sweep (its sweep.json differs): use another --out");
    }
    if (const auto changed = input_changed_since(manifest_path, inputs); changed && !options.resume) {
      throw std::runtime_error(options.out_dir + " holds this sweep, started before " + *changed +
                               " last changed: pass --resume to keep its finished points anyway, or choose "
                               "another --out");
    }
    sort_results(results, grid);  // drops interrupted points' rows
    finished = index_results(results, results_format(header, grid.size()));
  } else {
    write_file_atomically(manifest_path, wanted);
    write_file_atomically(results, header);
  }
  return finished;
}

}  // namespace

// The grid's size and shape, e.g. "2 workloads x 1000 glb.size_kib x 64 pe_array.rows".
std::string grid_shape(const SweepGrid& grid) {
  std::string shape = fmt::format("{} workload{}", grid.workloads().size(), grid.workloads().size() == 1 ? "" : "s");
  for (const SweepParameter& p : grid.parameters()) shape += fmt::format(" x {} {}", p.values.size(), p.key);
  return shape;
}

// Checks that need no simulation: the point count, and a plot's numeric axis.
void check_grid(const SweepOptions& options, const SweepGrid& grid) {
  if (grid.size() > options.max_points) {
    throw UsageError(
        fmt::format("the sweep has {} points ({}), more than --max-points {}; narrow the --param "
                    "ranges or raise --max-points",
                    grid.size(), grid_shape(grid), options.max_points));
  }
  if (options.plot) plot_keys(grid.parameters(), options.plot_by);
}

std::string list_sweep_points(const SweepOptions& options) {
  const SweepGrid grid = make_grid(options);
  check_grid(options, grid);
  std::string out;
  for (std::size_t i = 0; i < grid.size(); ++i) {
    if (options.shard.contains(i)) out += point_label(grid, i) + "\n";
  }
  return out;
}

// results.csv holds a row per executed layer and one total per point: at most (layers + 1) rows of at most
// kSweepRowMaxBytes each. Refused before anything runs when that could exceed --max-output-mb.
void check_results_size(const SweepOptions& options, const SweepGrid& grid,
                        const std::vector<WorkloadSummary>& workloads) {
  std::uint64_t rows = 0;
  for (std::size_t i = 0; i < grid.size(); ++i) {
    if (options.shard.contains(i)) rows += workloads[grid.point(i).workload].layers + 1;
  }
  const double estimate_mb = static_cast<double>(rows * kSweepRowMaxBytes) / 1e6;
  if (estimate_mb > options.max_output_mb) {
    throw UsageError(fmt::format(
        "results.csv may take up to {:.0f} MB ({} rows of at most {} bytes: a row per layer and a total per point), "
        "over --max-output-mb {}; narrow the --param ranges, split the sweep with --shard, or raise --max-output-mb",
        estimate_mb, rows, kSweepRowMaxBytes, options.max_output_mb));
  }
}

// The files the points read: the config, the workloads and the energy tables the swept values name.
std::vector<std::string> sweep_inputs(const SweepOptions& options, const std::vector<std::string>& energy_tables) {
  std::vector<std::string> inputs = {options.config_path};
  inputs.insert(inputs.end(), options.workload_paths.begin(), options.workload_paths.end());
  inputs.insert(inputs.end(), energy_tables.begin(), energy_tables.end());
  return inputs;
}

// The files a sweep writes into --out: results.csv and sweep.json, and with --plot each workload's plot
// files (sweep_plot). Refused before anything is written when one of them is an input.
void refuse_outputs_over_inputs(const SweepOptions& options, const std::vector<WorkloadSummary>& workloads,
                                const std::vector<std::string>& inputs) {
  check_output_folder_option(options.out_dir, "--out");
  std::vector<std::string> names = {"results.csv", "sweep.json"};
  if (options.plot) {
    for (const WorkloadSummary& workload : workloads) {
      for (const std::string& name : plot_file_names(workload.name)) names.push_back(name);
    }
  }
  if (options.pareto) {
    names.push_back(kParetoCsv);
    for (const WorkloadSummary& workload : workloads) {
      for (const std::string& name : sweep_pareto_file_names(workload.name)) names.push_back(name);
    }
  }
  for (const std::string& name : names) {
    const std::string output = (std::filesystem::path(options.out_dir) / name).string();
    if (const auto clash = find_output_over_input({output}, inputs)) {
      throw std::runtime_error("--out " + options.out_dir + ": the output " + name + " would replace the input " +
                               clash->input + "; choose another folder");
    }
  }
}

namespace {

// Runs the points of `todo` on the options' executor, or in `jobs` worker processes forked from this one.
void run_points(const SweepOptions& options, const SweepInputs& inputs, const SweepGrid& grid,
                const std::vector<std::size_t>& todo, const SweepPointDone& on_done) {
  if (options.executor) {
    options.executor(todo, on_done);
    return;
  }
  keep_freed_memory_for_reuse();
  const InterruptGuard interrupt_guard;  // SIGINT/SIGTERM: keep the finished points, then stop
  run_in_processes(
      todo.size(), options.jobs, [&](std::size_t i) { return simulate_point(options, inputs, grid, todo[i]); },
      on_done);
}

std::string workers_text(const SweepOptions& options) {
  return options.executor ? "the executor" : fmt::format("{} worker(s)", options.jobs);
}

}  // namespace

void run_sweep(const SweepOptions& options) {
  const SweepGrid grid = make_grid(options);
  check_grid(options, grid);  // the quick checks first: the value check may take a while
  SweepInputs inputs;
  inputs.workloads =
      load_workloads(grid, [&](const std::string& line) { say(options.on_status, std::cerr, line + "\n"); });
  const std::vector<WorkloadSummary> workloads = workload_summaries(inputs.workloads);
  check_results_size(options, grid, workloads);
  inputs.config_document = load_yaml_file(options.config_path);
  const std::vector<std::string> energy_tables = check_parameters(options, inputs.config_document, grid);
  const std::vector<std::string> input_files = sweep_inputs(options, energy_tables);
  refuse_outputs_over_inputs(options, workloads, input_files);
  inputs.energy_tables = load_energy_tables(energy_tables);
  std::filesystem::create_directories(options.out_dir);
  const std::string results = options.out_dir + "/results.csv";
  const std::map<std::size_t, PointRows> finished =
      prepare_results(options, grid, results, options.out_dir + "/sweep.json", input_files);
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < grid.size(); ++i) {
    if (options.shard.contains(i) && finished.find(i) == finished.end()) todo.push_back(i);
  }
  if (options.reverse_order) std::reverse(todo.begin(), todo.end());
  say(options.on_status, std::cerr,
      fmt::format("{} points in this shard, {} already finished, {} to run on {}\n", todo.size() + finished.size(),
                  finished.size(), todo.size(), workers_text(options)));
  std::FILE* out = std::fopen(results.c_str(), "ab");
  if (out == nullptr) throw std::runtime_error("cannot append to " + results);
  Progress progress(todo.size());
  std::map<std::size_t, std::string> failures;  // by point index, so the report does not depend on the order
  try {
    run_points(options, inputs, grid, todo, [&](std::size_t i, const std::string& rows) {
      const std::size_t index = todo.at(i);
      if (!rows.empty() && rows[0] == '!') {
        failures[index] = point_label(grid, index) + ": " + rows.substr(1);
      } else {  // one write per point, flushed: an interruption leaves whole points behind
        std::fwrite(rows.data(), 1, rows.size(), out);
        std::fflush(out);
      }
      progress.finished(point_label(grid, index));
    });
  } catch (const Interrupted& interrupted) {
    std::fclose(out);
    const std::size_t kept = sort_results(results, grid);
    throw Interrupted(
        std::string(interrupted.what()) +
        fmt::format(": {} points finished are in {}; rerun with --resume to complete the sweep", kept, results));
  } catch (...) {
    std::fclose(out);
    throw;
  }
  std::fclose(out);
  sort_results(results, grid);
  if (options.plot) {
    const PlotKeys keys = plot_keys(grid.parameters(), options.plot_by);
    say(options.on_result, std::cout, plot_sweep(options.out_dir, keys, energy_column_components()));
  }
  if (options.pareto) say(options.on_result, std::cout, write_sweep_pareto(options.out_dir));
  say(options.on_result, std::cout, "wrote " + results + "\n");
  if (!failures.empty()) {
    std::string message =
        fmt::format("{} points could not be simulated (rerun with --resume after fixing):", failures.size());
    for (const auto& [index, failure] : failures) message += "\n  " + failure;
    throw std::runtime_error(message);
  }
}

struct SweepPointSimulator::State {
  SweepOptions options;
  SweepGrid grid;
  SweepInputs inputs;
};

SweepPointSimulator::SweepPointSimulator(SweepOptions options)
    : state_(std::make_unique<State>(State{options, make_grid(options), {}})) {
  state_->inputs.workloads = load_workloads(state_->grid, {});  // the sweep itself reported their notes
  state_->inputs.config_document = load_yaml_file(options.config_path);
}

SweepPointSimulator::~SweepPointSimulator() = default;

std::size_t SweepPointSimulator::size() const {
  return state_->grid.size();
}

std::string SweepPointSimulator::rows(std::size_t index) const {
  if (index >= size()) throw std::out_of_range(fmt::format("point {} of a sweep of {} points", index, size()));
  return simulate_point(state_->options, state_->inputs, state_->grid, index);
}

// A shard's sweep.json, checked: the merge reads its parameters and point count.
nlohmann::ordered_json read_manifest(const std::string& dir) {
  const std::string path = dir + "/sweep.json";
  std::ifstream in(path);
  if (!in) throw InputError({path, 0, 0, {}}, "", "missing; is " + dir + " a sweep's --out folder?");
  nlohmann::ordered_json manifest;
  try {
    manifest = nlohmann::ordered_json::parse(in);
  } catch (const nlohmann::json::exception& error) {
    throw InputError({path, 0, 0, {}}, "", std::string("not valid JSON (") + error.what() + "); was it edited?");
  }
  if (!manifest.is_object() || !manifest.contains("parameters") || !manifest["parameters"].is_array() ||
      !manifest.contains("points") || !manifest["points"].is_number_unsigned()) {
    throw InputError({path, 0, 0, {}}, "", "not a sweep manifest (it needs 'parameters' and 'points'); was it edited?");
  }
  return manifest;
}

// A merge writes a new sweep folder: results.csv or sweep.json already in --out (a finished sweep, or an
// earlier merge) would be replaced, so it is refused before anything is read.
void refuse_merge_over_a_sweep(const std::string& out_dir) {
  check_output_folder_option(out_dir, "--out");
  for (const char* name : {"results.csv", "sweep.json"}) {
    std::error_code error;
    if (std::filesystem::exists(std::filesystem::symlink_status(std::filesystem::path(out_dir) / name, error))) {
      throw std::runtime_error("--out " + out_dir + " already holds a sweep's " + name +
                               ", which the merge would replace; merge into a new folder (nothing was written)");
    }
  }
}

void merge_sweeps(const std::vector<std::string>& shard_dirs, const std::string& out_dir,
                  const SweepMessage& on_result) {
  if (shard_dirs.empty()) throw std::runtime_error("give the shard folders to merge");
  refuse_merge_over_a_sweep(out_dir);
  nlohmann::ordered_json first;
  std::vector<std::pair<std::string, std::map<std::size_t, PointRows>>> sources;
  std::string header;  // the first shard's; every shard's must equal it
  for (const std::string& dir : shard_dirs) {
    nlohmann::ordered_json shard = read_manifest(dir);
    shard.erase("shard");
    if (first.is_null()) first = shard;
    if (shard != first) throw std::runtime_error(dir + " holds a different sweep than " + shard_dirs.front());
    const std::string path = dir + "/results.csv";
    if (header.empty()) {
      std::ifstream results(path);
      if (!std::getline(results, header)) throw std::runtime_error(path + " is missing or empty");
      header += "\n";
    }
    sources.emplace_back(path, index_results(path, results_format(header, first["points"].get<std::size_t>())));
  }
  const std::size_t points = first["points"].get<std::size_t>();
  std::size_t found = 0;
  for (const auto& source : sources) found += source.second.size();
  if (found != points) {
    throw std::runtime_error(fmt::format(
        "{} of {} points are missing from the {} shards: run the missing shards (or --resume them) and merge again "
        "(nothing was written)",
        points - found, points, sources.size()));
  }
  std::vector<std::string> inputs;
  for (const std::string& dir : shard_dirs) {
    inputs.push_back(dir + "/results.csv");
    inputs.push_back(dir + "/sweep.json");
  }
  OutputFolder out(out_dir, "--out", {"results.csv", "sweep.json"}, inputs);  // all or nothing
  write_sorted_results(out.staged("results.csv"), header, sources);           // throws on a point found twice
  first["shard"] = "0/1";
  write_file_atomically(out.staged("sweep.json"), first.dump(2) + "\n");
  out.commit();
  say(on_result, std::cout,
      fmt::format("merged {} shards: {} of {} points into {}/results.csv\n", sources.size(), found, points, out_dir));
}

}  // namespace ergon
