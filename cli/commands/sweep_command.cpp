// `ergon sweep` and `ergon sweep-merge`: design-space sweeps over config keys (docs/sweep.md).
#include <fmt/format.h>
#include <stdlib.h>  // mkdtemp

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "cli/commands/cli_checks.hpp"
#include "cli/commands/commands.hpp"
#include "cli/commands/output.hpp"
#include "common/interrupt_cleanup.hpp"
#include "common/text.hpp"
#include "network/layer.hpp"  // kMaxBatch
#include "sim/data_paths.hpp"
#include "sim/parallel/interrupt.hpp"
#include "sim/parallel/process_pool.hpp"
#include "sim/sweep/sweep_pareto.hpp"
#include "sim/sweep/sweep_plot.hpp"
#include "sim/sweep/sweep_results.hpp"
#include "sim/sweep/sweep_run.hpp"

namespace ergon {
namespace {

struct SweepArguments {
  SweepOptions options;
  std::vector<std::string> parameters;
  std::vector<std::string> links;
  std::string shard = "0/1";
  SimulationChoice simulation;  // --batch, --fidelity, declared as on every command that simulates
  std::string format = "table";
  bool list_points = false;
};

struct MergeArguments {
  std::vector<std::string> shards;
  std::string out_dir;
  std::string format = "table";
  bool plot = false;
  std::string plot_by;
  bool pareto = false;
};

// A print-only run's folder (docs/cli.md, "Outputs"): made under the temporary folder, removed when the command
// ends, also when it fails or is interrupted.
class ScratchFolder {
 public:
  explicit ScratchFolder(const std::string& command) {
    std::string pattern = (std::filesystem::temp_directory_path() / ("ergon-" + command + "-XXXXXX")).string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("cannot make a scratch folder " + pattern);
    path_ = pattern;
    cleanup_ = std::make_unique<CleanupOnInterrupt>(path_);
  }
  ~ScratchFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::unique_ptr<CleanupOnInterrupt> cleanup_;
};

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<CsvRow> csv_records(const std::string& csv) {
  std::istringstream in(csv);
  CsvRowReader reader(in, "results.csv");
  std::vector<CsvRow> rows;
  for (CsvRow row; reader.next(row);) rows.push_back(std::move(row));
  return rows;
}

// The records' fields, the header first.
std::vector<std::vector<std::string>> record_fields(const std::vector<CsvRow>& records) {
  std::vector<std::vector<std::string>> rows;
  for (const CsvRow& record : records) rows.push_back(record.fields);
  return rows;
}

nlohmann::ordered_json csv_objects(const std::vector<CsvRow>& records) {
  return rows_as_json(record_fields(records), {"workload", "layer", "op"});
}

// A row per point (its total row): the point, workload and key columns (between `workload` and `layer`), cycles,
// latency, energy and, when results.csv has it, area.
std::string totals_table(const std::vector<CsvRow>& records) {
  if (records.empty()) return "";
  const std::vector<std::string>& header = records[0].fields;
  const auto column = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  };
  const std::size_t workload = column("workload"), layer = column("layer"), area = column("area_mm2");
  if (layer >= header.size() || workload >= layer) return "";  // not a sweep's results: csv and json still show it
  std::vector<std::string> heading = {"point", "workload"};
  for (std::size_t c = workload + 1; c < layer; ++c) heading.push_back(header[c]);
  for (const char* name : {"cycles", "latency ms", "energy uJ"}) heading.emplace_back(name);
  if (area < header.size()) heading.emplace_back("area mm2");
  std::vector<std::vector<std::string>> rows = {heading};
  const auto scaled = [](const std::string& cell, double divisor, const char* format) {
    const std::optional<double> value = parse_finite_number(cell);
    return value ? fmt::format(fmt::runtime(format), *value / divisor) : cell;
  };
  for (std::size_t r = 1; r < records.size(); ++r) {
    const std::vector<std::string>& f = records[r].fields;
    if (f.size() != header.size() || f[layer] != "total") continue;
    std::vector<std::string> row(f.begin(), f.begin() + static_cast<long>(layer));
    const auto cell = [&](const std::string& name) { return column(name) < f.size() ? f[column(name)] : ""; };
    row.push_back(cell("cycles"));
    row.push_back(scaled(cell("time_ns"), 1e6, "{:.4f}"));
    row.push_back(scaled(cell("total_pj"), 1e6, "{:.3f}"));
    if (area < header.size()) row.push_back(scaled(f[area], 1, "{:.3f}"));
    rows.push_back(std::move(row));
  }
  return aligned_table(rows);
}

// The results of the sweep in `folder` in every --format: csv is results.csv itself.
ReportForms results_forms(const std::string& folder) {
  ReportForms forms;
  forms.csv = file_text(folder + "/results.csv");
  const std::vector<CsvRow> records = csv_records(forms.csv);
  nlohmann::ordered_json json = {{"sweep", nlohmann::ordered_json::parse(file_text(folder + "/sweep.json"))},
                                 {"results", csv_objects(records)}};
  forms.json = json.dump(2) + "\n";
  forms.table = totals_table(records) + "(a row per point; its layers' rows: --format csv or json)\n";
  return forms;
}

// The Pareto front of the sweep in `folder` in every --format: csv is pareto.csv.
ReportForms pareto_forms(const std::string& folder) {
  const std::string results = folder + "/results.csv";
  const SweepParetoFront front = sweep_pareto_front(results);
  if (!front.area_left_out.empty()) std::cerr << "note: " << front.area_left_out << "\n";
  std::size_t on_front = 0;
  for (const SweepParetoPoint& point : front.points) on_front += point.on_front ? 1 : 0;
  ReportForms forms;
  forms.csv = sweep_pareto_csv(front, results);
  const std::vector<CsvRow> records = csv_records(forms.csv);
  nlohmann::ordered_json json = {
      {"objectives", front.objectives}, {"points", front.points.size()}, {"front", csv_objects(records)}};
  forms.json = json.dump(2) + "\n";
  std::string objectives;
  for (const std::string& objective : front.objectives) objectives += (objectives.empty() ? "" : ", ") + objective;
  forms.table =
      fmt::format("Pareto front: {} of {} points, minimising {}\n", on_front, front.points.size(), objectives) +
      totals_table(records);
  return forms;
}

void print_forms(const std::string& folder, bool pareto, const std::string& format) {
  std::cout << std::flush;
  print_report(pareto ? pareto_forms(folder) : results_forms(folder), format);
}

void print_lines_to_stderr(const std::string& line) {
  std::cerr << line << "\n";
}

// Without --out a sweep prints its results and keeps nothing, so what only makes sense with a folder is refused.
void check_print_only_options(const SweepArguments& arguments, bool shard_given) {
  const SweepOptions& options = arguments.options;
  if (!options.out_dir.empty() || arguments.list_points) return;
  if (options.resume) throw UsageError("--resume continues the sweep in an --out folder: give --out DIR");
  if (shard_given) throw UsageError("--shard writes one shard's folder for sweep-merge: give --out DIR");
  refuse_without_out(options.out_dir, "--plot", options.plot && options.plot_by.empty());
  refuse_without_out(options.out_dir, "--plot-by", !options.plot_by.empty());
}

void parse_sweep_arguments(SweepArguments& arguments) {
  SweepOptions& options = arguments.options;
  options.batch = arguments.simulation.batch;
  for (const std::string& text : arguments.parameters) options.parameters.push_back(parse_sweep_parameter(text));
  for (const std::string& text : arguments.links) options.links.push_back(parse_sweep_link(text));
  for (const SweepParameter& parameter : options.parameters) {
    if (parameter.key == kBatchKey && options.batch > 0) {
      throw UsageError("--batch " + std::to_string(options.batch) + " fixes batch, which --param " +
                       parameter.argument + " sweeps: drop one of them");
    }
  }
  if (!options.plot_by.empty()) options.plot = true;
  options.shard = parse_shard(arguments.shard);
  options.fidelity = parse_fidelity(arguments.simulation.fidelity);
  check_distinct_keys(options.parameters, options.overrides, options.links);
  resolve_link_sources(options.links, options.parameters, options.overrides, options.config_path, options.batch);
}

// Runs the sweep in a scratch folder and prints its results (or its front): nothing is kept.
void run_print_only_sweep(SweepOptions options, const std::string& format) {
  const ScratchFolder scratch("sweep");
  options.out_dir = scratch.path() + "/sweep";
  const bool pareto = options.pareto;
  options.pareto = false;                         // printed below, not written
  options.on_result = [](const std::string&) {};  // "wrote <scratch folder>": it is not kept
  try {
    run_sweep(options);
  } catch (const Interrupted&) {
    throw Interrupted("interrupted: a sweep without --out keeps nothing; give --out to keep finished points");
  }
  print_forms(options.out_dir, pareto, format);
}

void run_sweep_command(SweepArguments& arguments, bool shard_given, bool format_given) {
  parse_sweep_arguments(arguments);
  SweepOptions& options = arguments.options;
  if (arguments.list_points) {
    std::cout << list_sweep_points(options);
    return;
  }
  check_print_only_options(arguments, shard_given);
  check_link_values(SweepGrid(options.workload_paths, options.parameters, options.links), options.overrides,
                    options.config_path);
  if (options.out_dir.empty()) {
    run_print_only_sweep(options, arguments.format);
    return;
  }
  if (format_given) options.on_result = print_lines_to_stderr;  // stdout holds the results alone
  run_sweep(options);
  if (format_given) print_forms(options.out_dir, options.pareto, arguments.format);
}

// The plot's keys from the first shard's sweep.json, checked before anything is merged; a folder that is not a
// sweep's is left to the merge to name.
std::optional<PlotKeys> merge_plot_keys(const MergeArguments& arguments) {
  if (!arguments.plot && arguments.plot_by.empty()) return std::nullopt;
  refuse_without_out(arguments.out_dir, arguments.plot_by.empty() ? "--plot" : "--plot-by", true);
  const std::string manifest = arguments.shards.front() + "/sweep.json";
  if (!std::filesystem::exists(manifest)) return std::nullopt;
  return plot_keys(manifest_parameters(manifest), arguments.plot_by);
}

void run_merge_command(const MergeArguments& arguments, bool format_given) {
  const std::optional<PlotKeys> keys = merge_plot_keys(arguments);
  if (arguments.out_dir.empty()) {
    const ScratchFolder scratch("sweep-merge");
    const std::string folder = scratch.path() + "/merged";
    merge_sweeps(arguments.shards, folder, [](const std::string&) {});  // names the scratch folder
    print_forms(folder, arguments.pareto, arguments.format);
    return;
  }
  const SweepMessage to = format_given ? SweepMessage(print_lines_to_stderr) : SweepMessage();
  const auto say = [&](const std::string& text) { (format_given ? std::cerr : std::cout) << text << std::flush; };
  merge_sweeps(arguments.shards, arguments.out_dir, to);
  if (keys) {
    const std::string results = arguments.out_dir + "/results.csv";
    say(plot_sweep(arguments.out_dir, *keys, energy_components_in(results)));
  }
  if (arguments.pareto) say(write_sweep_pareto(arguments.out_dir));
  if (format_given) print_forms(arguments.out_dir, arguments.pareto, arguments.format);
}

// The shared options' --help groups come from the grammar pass (cli/commands/cli_grammar.cpp); the options only
// a sweep has are under "Sweep".
constexpr const char* kSweep = "Sweep";

void add_input_options(CLI::App& sweep, SweepOptions& options) {
  sweep.add_option("--config,-c", options.config_path, "Accelerator config YAML")
      ->capture_default_str()
      ->transform(shipped_config());
  sweep.add_option("--workload,-w", options.workload_paths, "Workload YAML (repeatable)")
      ->required()
      ->transform(shipped_workload());
  sweep.add_option("--set", options.overrides, "Override a config key at every point: key.path=value (repeatable)");
}

void add_simulation_options(CLI::App& sweep, SweepArguments& arguments) {
  SweepOptions& options = arguments.options;
  sweep
      .add_option("--param,-p", arguments.parameters,
                  "key.path=SPEC: a list 1,2,4 or lpddr4,hbm2; a range lo:hi:step; a geometric range lo:hi:*2 "
                  "(repeatable: cartesian product); `batch` sweeps the images per layer")
      ->required();
  sweep.add_option("--link", arguments.links,
                   "KEY=EXPR: KEY computed at each point from one key, e.g. glb.filter_size_kib=glb.size_kib/2 "
                   "(EXPR: the key, numbers, * / + -; repeatable)");
  ergon::add_simulation_options(sweep, arguments.simulation);
  sweep.add_option("--jobs,-j", options.jobs, "Worker processes")
      ->capture_default_str()
      ->check(CLI::Range(1u, kMaxWorkerProcesses));
}

// --format, --plot, --plot-by and --pareto, which sweep and sweep-merge share.
void add_figure_options(CLI::App& command, std::string& format, bool& plot, std::string& plot_by, bool& pareto) {
  add_format_option(command, format);
  command.add_flag("--plot", plot, "Plot energy by component against the swept key (gnuplot PNG and SVG)");
  command.add_option("--plot-by", plot_by,
                     "With two swept keys: plot the total energy against the other, a line per value of this one "
                     "(implies --plot)");
  command.add_flag("--pareto", pareto,
                   "The points no other beats on latency and energy (and area_mm2 when there): pareto.csv and a plot; "
                   "printed without --out");
}

void add_output_options(CLI::App& sweep, SweepArguments& arguments) {
  SweepOptions& options = arguments.options;
  sweep.add_option("--out,-o", options.out_dir,
                   "Output folder: results.csv, sweep.json (kept point by point, for --resume); without it the "
                   "results are printed and nothing is written");
  add_figure_options(sweep, arguments.format, options.plot, options.plot_by, options.pareto);
  sweep
      .add_option("--max-output-mb", options.max_output_mb,
                  "Refuse a sweep whose results.csv could take more than this (estimated before it runs)")
      ->check(CLI::Range(0.001, 1e9))
      ->capture_default_str();
  add_progress_options(sweep);
}

void add_sweep_options(CLI::App& sweep, SweepArguments& arguments) {
  SweepOptions& options = arguments.options;
  sweep.add_option("--max-points", options.max_points, "Refuse a sweep with more points than this")
      ->capture_default_str()
      ->check(CLI::PositiveNumber)
      ->group(kSweep);
  sweep.add_flag("--list-points", arguments.list_points, "Print the points (of this shard) and exit")->group(kSweep);
  sweep.add_flag("--resume", options.resume, "Continue the sweep in --out, skipping its finished points")
      ->group(kSweep);
  sweep.add_option("--shard", arguments.shard, "I/N: run only the points whose index modulo N is I (needs --out)")
      ->capture_default_str()
      ->group(kSweep);
  sweep
      .add_flag("--reverse", options.reverse_order,
                "Run the points last first (a determinism check: results.csv is byte-identical)")
      ->group(kSweep);
}

void register_merge_command(CLI::App& app) {
  CLI::App* merge = app.add_subcommand("sweep-merge", "Merge the results of a sweep's shards");
  auto arguments = std::make_shared<MergeArguments>();
  merge->add_option("shards", arguments->shards, "The shards' --out folders")
      ->required()
      ->check(CLI::ExistingDirectory);
  merge->add_option("--out,-o", arguments->out_dir,
                    "Output folder: the merged results.csv and sweep.json; without it the merged results are "
                    "printed and nothing is written");
  add_figure_options(*merge, arguments->format, arguments->plot, arguments->plot_by, arguments->pareto);
  merge->footer("Example:\n  ergon sweep-merge results/glb-shard0 results/glb-shard1 --pareto -o results/glb");
  merge->callback([arguments, merge] { run_merge_command(*arguments, merge->count("--format") > 0); });
}

}  // namespace

void register_sweep_command(CLI::App& app) {
  CLI::App* sweep = app.add_subcommand("sweep", "Sweep config keys over workloads, in parallel processes");
  auto arguments = std::make_shared<SweepArguments>();
  arguments->options.config_path = default_config_path();
  arguments->options.jobs = available_cores();
  add_input_options(*sweep, arguments->options);
  add_simulation_options(*sweep, *arguments);
  add_output_options(*sweep, *arguments);
  add_sweep_options(*sweep, *arguments);
  sweep->footer(
      "Example:\n  ergon sweep -c eyeriss -w alexnet -p glb.size_kib=16:512:*2 --link "
      "glb.filter_size_kib=glb.size_kib/2 --pareto -o results/glb");
  sweep->callback(
      [arguments, sweep] { run_sweep_command(*arguments, sweep->count("--shard") > 0, sweep->count("--format") > 0); });
  register_merge_command(app);
}

ERGON_REGISTER(CliCommand, "sweep", CliCommand{register_sweep_command}, 70)

}  // namespace ergon
