// The `ergon._ergon` extension: the simulation library's entry points for Python (docs/python.md). Results
// cross as the JSON and CSV texts the command line writes, so a Python run and a CLI run give the same
// figures, and the `ergon` package (python/ergon/__init__.py) turns them into plain Python data.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "arch/config_keys.hpp"
#include "common/input_error.hpp"
#include "common/progress_display.hpp"
#include "common/text.hpp"
#include "network/importers/onnx_model.hpp"
#include "power/dvfs/arada_policy.hpp"
#include "power/estimators/registry.hpp"
#include "python/sigint_watch.hpp"
#include "sim/data_paths.hpp"
#include "sim/dvfs/dvfs_run.hpp"
#include "sim/parallel/interrupt.hpp"
#include "sim/parallel/process_pool.hpp"
#include "sim/run_pipeline.hpp"
#include "sim/run_report.hpp"
#include "sim/simulation.hpp"
#include "sim/sweep/sweep_links.hpp"
#include "sim/sweep/sweep_pareto.hpp"
#include "sim/sweep/sweep_run.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace ergon {
namespace {

// report.json and layers.csv of one run, as the CLI writes them.
py::dict run_texts(const SimulationResult& result, const AcceleratorConfig& config, const Workload& workload,
                   const std::string& fidelity) {
  return py::dict("report_json"_a = run_json(result, config, workload, fidelity).dump(2),
                  "layers_csv"_a = layers_csv(result));
}

// SystemC keeps one kernel per process: simulations from several Python threads take turns. Taken with
// the GIL released, so the thread that holds it can finish and take the GIL back.
std::mutex one_kernel_at_a_time;

// A simulation stopped by Ctrl-C: Python's SIGINT handler now runs here, on the caller's stack (by default
// it raises KeyboardInterrupt); a handler that raises nothing still leaves the call stopped.
[[noreturn]] void raise_interrupt(const std::string& what) {
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  throw Interrupted(what);
}

py::dict simulate(const AcceleratorConfig& config, const Workload& workload, const std::string& fidelity,
                  std::optional<std::int64_t> batch) {
  if (batch && (*batch < 1 || *batch > kMaxBatch)) {
    throw std::invalid_argument("batch must be from 1 to " + std::to_string(kMaxBatch));
  }
  refuse_workload_without_work(workload);
  SimulationOptions options;
  options.fidelity = parse_fidelity(fidelity);
  options.batch = batch;
  options.observers.interrupt_requested = &SigintWatch::caught;
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();  // a Ctrl-C already pressed
  std::optional<SimulationResult> result;
  std::string interrupted;
  {
    const py::gil_scoped_release python_threads_run_meanwhile;
    const std::lock_guard<std::mutex> kernel(one_kernel_at_a_time);
    const SigintWatch ctrl_c;
    try {
      result = run_pipeline(Chip(config), workload, options);
    } catch (const Interrupted& stopped) {
      interrupted = stopped.what();
    }
  }
  if (!result) raise_interrupt(interrupted);
  return run_texts(*result, config, workload, fidelity);
}

// Not interruptible yet: ARADA's simulations take no observers. It still takes its turn with the kernel.
py::dict dvfs(const AcceleratorConfig& config, const Workload& given, const std::string& scheme, double deadline_ms,
              const std::string& fidelity, std::optional<std::int64_t> batch) {
  const DvfsScheme dvfs_scheme = parse_dvfs_scheme(scheme);
  Workload workload = given;  // --batch applies to the workload itself, as `ergon dvfs` does
  if (batch) workload.set_batch(*batch);
  std::optional<DvfsOutcome> finished;
  {
    const py::gil_scoped_release python_threads_run_meanwhile;
    const std::lock_guard<std::mutex> kernel(one_kernel_at_a_time);
    const Chip chip(config);
    const SimulationResult race_to_idle = simulate_race_to_idle(chip, workload, parse_fidelity(fidelity));
    finished = run_dvfs(chip, workload, dvfs_scheme, race_to_idle, deadline_ms * 1e6);
  }
  const DvfsOutcome& outcome = *finished;
  return py::dict("report_json"_a = dvfs_json(outcome, config, workload).dump(2),
                  "race_to_idle"_a = run_texts(outcome.race_to_idle, config, workload, fidelity),
                  "scheduled"_a = run_texts(outcome.scheduled, config, workload, fidelity));
}

// The option values an estimator is given: known names only, required ones present, choices respected.
EstimatorSettings estimator_settings(const IEstimator& estimator, const std::map<std::string, std::string>& given) {
  const std::vector<EstimatorOption> options = estimator.options();
  EstimatorSettings settings;
  std::vector<std::string> known;
  for (const EstimatorOption& option : options) {
    known.push_back(option.name);
    settings.set(option.name, option.default_value);
  }
  for (const auto& [name, value] : given) {
    const auto option = std::find_if(options.begin(), options.end(),
                                     [&name = name](const EstimatorOption& o) { return o.name == name; });
    if (option == options.end()) {
      throw std::invalid_argument("estimator '" + estimator.name() + "' has no option '" + name +
                                  "'; it has: " + (known.empty() ? "none" : join_alternatives(known)));
    }
    if (option->choices.empty()) {
      settings.set(name, value);
    } else if (const std::optional<std::string> choice = matching_choice(*option, value)) {
      settings.set(name, *choice);  // case-insensitive, as on the command line
    } else {
      throw std::invalid_argument("estimator '" + estimator.name() + "': " + name + " must be one of " +
                                  join_alternatives(option->choices) + ", not '" + value + "'");
    }
  }
  for (const EstimatorOption& option : options) {
    if (option.required && !settings.has(option.name)) {
      throw std::invalid_argument("estimator '" + estimator.name() + "' needs the option '" + option.name + "'");
    }
  }
  return settings;
}

py::dict estimate(const std::string& name, const Workload& workload, const AcceleratorConfig* config,
                  const std::map<std::string, std::string>& options) {
  const IEstimator* estimator = find_estimator(name);
  if (estimator == nullptr) {
    throw std::invalid_argument("no estimator '" + name + "'; there are: " + join_alternatives(estimator_names()));
  }
  std::optional<ChipInputs> chip;
  if (estimator->models_a_chip()) {
    if (config == nullptr) throw std::invalid_argument("estimator '" + name + "' models a chip: give a config");
    chip = ChipInputs{*config, load_energy_table(energy_table_path(*config))};
  }
  const EstimatorInputs inputs{workload, chip ? &*chip : nullptr, estimator_settings(*estimator, options),
                               shipped_data_dir()};
  const EstimateReport report = estimator->estimate(inputs);
  return py::dict("json"_a = report.forms.json, "table"_a = report.forms.table, "csv"_a = report.forms.csv);
}

// An ONNX model's import options (--input-shape, --input-value, --skip-unsupported, --loop-trips), checked by
// the Python layer.
using InputShapes = std::map<std::string, std::vector<std::int64_t>>;
using InputValues = std::map<std::string, std::vector<double>>;

OnnxImportOptions onnx_options(const InputShapes& input_shapes, const InputValues& input_values, bool skip_unsupported,
                               std::int64_t loop_trips) {
  return {input_shapes, input_values, skip_unsupported, loop_trips};
}

// The workload, the import's notes and its warnings, which the Python layer logs and warns of.
py::tuple load_onnx(const std::string& path, const InputShapes& input_shapes, const InputValues& input_values,
                    bool skip_unsupported, std::int64_t loop_trips) {
  const OnnxImportOptions options = onnx_options(input_shapes, input_values, skip_unsupported, loop_trips);
  std::optional<OnnxImport> imported;
  std::optional<Workload> workload;
  {
    const py::gil_scoped_release python_threads_run_meanwhile;
    imported = import_onnx(path, options);
    workload = onnx_workload(*imported, path);
  }
  return py::make_tuple(*workload, imported->notes, imported->warnings);
}

// A sweep's models are read with the global import options, as the command line sets them: this sweep's,
// while it lives.
class ScopedImportOptions {
 public:
  explicit ScopedImportOptions(OnnxImportOptions options) : saved_(model_import_options()) {
    model_import_options() = std::move(options);
  }
  ~ScopedImportOptions() { model_import_options() = saved_; }
  ScopedImportOptions(const ScopedImportOptions&) = delete;
  ScopedImportOptions& operator=(const ScopedImportOptions&) = delete;

 private:
  OnnxImportOptions saved_;
};

// What defines a sweep's points: the Python layer's `spec`, which a worker elsewhere is sent.
struct SweepSpec {
  std::string config_path;
  std::vector<std::string> overrides;
  std::vector<std::string> workload_paths;
  std::vector<std::pair<std::string, std::string>> params;  // key, --param's spec
  std::int64_t batch = 0;                                   // --batch; 0: each layer's own
  std::vector<std::string> links;                           // --link KEY=EXPR, as given
  std::string fidelity;
  InputShapes input_shapes;
  InputValues input_values;
  bool skip_unsupported = false;
  std::int64_t loop_trips = 0;

  SweepOptions options() const {
    SweepOptions options;
    options.config_path = config_path;
    options.overrides = overrides;
    options.workload_paths = workload_paths;
    for (const auto& [key, spec] : params) options.parameters.push_back(parse_sweep_parameter(key + "=" + spec));
    options.batch = batch;
    for (const std::string& link : links) options.links.push_back(parse_sweep_link(link));
    options.fidelity = parse_fidelity(fidelity);
    // As the command line's: the links' keys checked against the swept and fixed keys, then their sources read.
    check_distinct_keys(options.parameters, options.overrides, options.links);
    resolve_link_sources(options.links, options.parameters, options.overrides, options.config_path, options.batch);
    return options;
  }
  OnnxImportOptions import_options() const {
    return onnx_options(input_shapes, input_values, skip_unsupported, loop_trips);
  }
};

// A Python callable held by C++ code that runs without the GIL: copies share it, and the last one lets it
// go holding the GIL.
std::shared_ptr<py::function> shared_callable(py::function function) {
  return std::shared_ptr<py::function>(new py::function(std::move(function)), [](py::function* callable) {
    const py::gil_scoped_acquire python;
    delete callable;
  });
}

// A Python callable `log(line)` as a sweep's message sink; the sweep calls it with the GIL released.
SweepMessage python_log(py::function log) {
  return [log = shared_callable(std::move(log))](const std::string& line) {
    const py::gil_scoped_acquire python;
    (*log)(line);
  };
}

// A Python callable `run(todo, finished)` that hands the points to an executor as the sweep's executor.
// Ctrl-C in it (KeyboardInterrupt) stops the sweep as a signal does: the finished points are kept.
SweepExecutor python_executor(py::function run) {
  return [run = shared_callable(std::move(run))](const std::vector<std::size_t>& todo, const SweepPointDone& finished) {
    const py::gil_scoped_acquire python;
    try {
      (*run)(todo, py::cpp_function([&finished](std::size_t i, const std::string& rows) { finished(i, rows); }));
    } catch (py::error_already_set& error) {
      if (error.matches(PyExc_KeyboardInterrupt)) throw Interrupted("interrupted");
      throw;
    }
  };
}

void sweep(const SweepSpec& spec, const std::string& out_dir, unsigned jobs, std::optional<bool> resume,
           std::size_t max_points, double max_output_mb, std::optional<py::function> executor, py::function log) {
  SweepOptions options = spec.options();
  options.out_dir = out_dir;
  options.jobs = jobs;
  options.resume = resume.value_or(false);
  options.resume_unless_inputs_changed = !resume.has_value();
  options.max_points = max_points;
  options.max_output_mb = max_output_mb;
  if (executor) options.executor = python_executor(std::move(*executor));
  options.on_result = python_log(log);
  options.on_status = python_log(std::move(log));
  const ScopedImportOptions import_options(spec.import_options());
  const py::gil_scoped_release no_python_while_the_points_run;
  check_link_values(SweepGrid(options.workload_paths, options.parameters, options.links), options.overrides,
                    options.config_path);  // a linked value the config refuses, named by its link
  run_sweep(options);
}

// `ergon sweep-merge SHARDS --out OUT_DIR`; `log(line)` takes the line saying what was merged.
void sweep_merge(const std::vector<std::string>& shard_dirs, const std::string& out_dir, py::function log) {
  const SweepMessage on_result = python_log(std::move(log));
  const py::gil_scoped_release python_threads_run_meanwhile;
  merge_sweeps(shard_dirs, out_dir, on_result);
}

// The Pareto front of a sweep's results.csv (--pareto): pareto.csv's text, and why area is not an objective
// although results.csv has the column (empty when it is one, or absent).
py::dict sweep_pareto(const std::string& results_path) {
  const SweepParetoFront front = sweep_pareto_front(results_path);
  return py::dict("csv"_a = sweep_pareto_csv(front, results_path), "area_left_out"_a = front.area_left_out);
}

// One point of a sweep, run where the executor sends it: loads the inputs once per object.
class PythonSweepPoints {
 public:
  explicit PythonSweepPoints(const SweepSpec& spec) : simulator_(load(spec)) {}
  std::size_t size() const { return simulator_->size(); }
  std::string rows(std::size_t index) const {
    const py::gil_scoped_release python_threads_run_meanwhile;
    const std::lock_guard<std::mutex> kernel(one_kernel_at_a_time);  // one SystemC kernel at a time
    return simulator_->rows(index);
  }

 private:
  static std::unique_ptr<SweepPointSimulator> load(const SweepSpec& spec) {
    const ScopedImportOptions import_options(spec.import_options());  // the models load now
    return std::make_unique<SweepPointSimulator>(spec.options());
  }
  std::unique_ptr<SweepPointSimulator> simulator_;
};

}  // namespace
}  // namespace ergon

PYBIND11_MODULE(_ergon, m) {
  using namespace ergon;
  m.doc() = "Ergon's simulation library (see the ergon package)";
  set_progress_shown(false);  // a library call prints nothing; results come back as values
  py::register_exception<InputError>(m, "InputError", PyExc_ValueError);
  py::register_exception<Interrupted>(m, "Interrupted", PyExc_KeyboardInterrupt);
  // The library refuses a bad argument value (an unknown fidelity, scheme, estimator or option) with
  // std::invalid_argument: from Python that is an input error too.
  static const py::handle input_error = m.attr("InputError");
  py::register_exception_translator([](std::exception_ptr raised) {
    try {
      if (raised) std::rethrow_exception(raised);
    } catch (const std::invalid_argument& error) {
      PyErr_SetString(input_error.ptr(), error.what());
    } catch (const UsageError& error) {  // a workload with nothing to simulate, say
      PyErr_SetString(input_error.ptr(), error.what());
    }
  });
  // The command line's bounds, declared once in the library.
  m.attr("MAX_BATCH") = kMaxBatch;
  m.attr("MAX_JOBS") = kMaxWorkerProcesses;

  py::class_<AcceleratorConfig>(m, "AcceleratorConfig")
      .def_readonly("name", &AcceleratorConfig::name)
      .def_readonly("file", &AcceleratorConfig::file)
      .def("__repr__", [](const AcceleratorConfig& c) { return "<ergon config " + c.name + " from " + c.file + ">"; });
  // Attributes of its own (py::dynamic_attr): the Python layer keeps a model's import options on it.
  py::class_<Workload>(m, "Workload", py::dynamic_attr(), R"doc(A loaded workload (docs/workloads.md).

Made by ``ergon.load_workload``; not constructed directly.

Attributes
----------
name : str
    The workload's name, as reports show it.
file : str
    The file it was loaded from.
layer_names : list of str
    Its layers' names, in order.

Examples
--------
>>> workload = ergon.load_workload("resnet8")
>>> workload.name, workload.layer_names[:2]
('resnet8', ['image', 'conv1'])
)doc")
      .def_property_readonly("name", &Workload::name, "The workload's name (str).")
      .def_property_readonly("file", &Workload::file, "The file it was loaded from (str).")
      .def_property_readonly(
          "layer_names",
          [](const Workload& w) {
            std::vector<std::string> names;
            for (const Layer& layer : w.layers()) names.push_back(layer.name);
            return names;
          },
          "Its layers' names, in order (list of str).")
      .def("__repr__", [](const Workload& w) { return "<ergon.Workload " + w.name() + " from " + w.file() + ">"; });

  m.def(
      "load_config",
      static_cast<AcceleratorConfig (*)(const std::string&, const std::vector<std::string>&)>(&load_accelerator_config),
      "path"_a, "overrides"_a = std::vector<std::string>{});
  // The config schema's declarations and a loaded config's values (`config keys`, `config show`), as JSON.
  m.def("config_keys_json", [] { return config_keys_json(accelerator_config_keys()).dump(); });
  m.def("config_values_json", [](const AcceleratorConfig& config) { return accelerator_config_values(config).dump(); });
  m.def("load_workload", &load_workload, "path"_a);
  m.def("load_onnx", &load_onnx, "path"_a, "input_shapes"_a, "input_values"_a, "skip_unsupported"_a, "loop_trips"_a);
  m.attr("MAX_LOOP_TRIPS") = kMaxLoopTrips;
  m.def("simulate", &simulate, "config"_a, "workload"_a, "fidelity"_a = "tlm", "batch"_a = std::nullopt);
  m.def("dvfs", &dvfs, "config"_a, "workload"_a, "scheme"_a, "deadline_ms"_a = 0.0, "fidelity"_a = "tlm",
        "batch"_a = std::nullopt);
  m.def("estimator_names", &estimator_names);
  m.def("estimate", &estimate, "name"_a, "workload"_a, "config"_a = nullptr,
        "options"_a = std::map<std::string, std::string>{});
  py::class_<SweepSpec>(m, "SweepSpec")
      .def(py::init<>())
      .def_readwrite("config_path", &SweepSpec::config_path)
      .def_readwrite("overrides", &SweepSpec::overrides)
      .def_readwrite("workload_paths", &SweepSpec::workload_paths)
      .def_readwrite("params", &SweepSpec::params)
      .def_readwrite("batch", &SweepSpec::batch)
      .def_readwrite("links", &SweepSpec::links)
      .def_readwrite("fidelity", &SweepSpec::fidelity)
      .def_readwrite("input_shapes", &SweepSpec::input_shapes)
      .def_readwrite("input_values", &SweepSpec::input_values)
      .def_readwrite("skip_unsupported", &SweepSpec::skip_unsupported)
      .def_readwrite("loop_trips", &SweepSpec::loop_trips);
  m.def("sweep", &sweep, "spec"_a, "out_dir"_a, "jobs"_a, "resume"_a, "max_points"_a, "max_output_mb"_a, "executor"_a,
        "log"_a);
  m.def("sweep_merge", &sweep_merge, "shard_dirs"_a, "out_dir"_a, "log"_a);
  m.def("sweep_pareto", &sweep_pareto, "results_path"_a);
  py::class_<PythonSweepPoints>(m, "SweepPoints")
      .def(py::init<const SweepSpec&>(), "spec"_a)
      .def("__len__", &PythonSweepPoints::size)
      .def("rows", &PythonSweepPoints::rows, "index"_a);
  m.def("dvfs_scheme_names", &dvfs_scheme_names);
  m.def("fidelity_names", [] {
    return std::vector<std::string>{fidelity_name(Fidelity::kTransactionLevel),
                                    fidelity_name(Fidelity::kCycleAccurate)};
  });
  m.def("default_config_path", &default_config_path);
  // Shipped parts by name (sim/data_paths.hpp): `part` is "config" or "workload".
  const auto shipped_part = [](const std::string& part) {
    if (part != "config" && part != "workload") throw py::value_error("part must be 'config' or 'workload'");
    return part == "config" ? ShippedPart::kConfig : ShippedPart::kWorkload;
  };
  m.def(
      "shipped_files",
      [shipped_part](const std::string& part) {
        std::vector<std::pair<std::string, std::string>> files;
        for (const ShippedFile& file : shipped_files(shipped_part(part))) files.emplace_back(file.name, file.path);
        return files;
      },
      "part"_a);
  m.def(
      "resolve_shipped",
      [shipped_part](const std::string& part, const std::string& name_or_path) {
        return resolve_shipped(shipped_part(part), name_or_path);
      },
      "part"_a, "name_or_path"_a);
  m.def(
      "why_not_shipped",
      [shipped_part](const std::string& part, const std::string& name_or_path) {
        return why_not_shipped(shipped_part(part), name_or_path);
      },
      "part"_a, "name_or_path"_a);
}
