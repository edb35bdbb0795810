// The `ergon._ergon` extension: the simulation library's entry points for Python (docs/python.md). Results
// cross as the JSON and CSV texts the command line writes, so a Python run and a CLI run give the same
// figures, and the `ergon` package (python/ergon/__init__.py) turns them into plain Python data.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "arch/config_keys.hpp"
#include "common/input_error.hpp"
#include "common/progress_display.hpp"
#include "common/text.hpp"
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
py::dict dvfs(const AcceleratorConfig& config, const Workload& workload, const std::string& scheme,
              double deadline_ms) {
  const DvfsScheme dvfs_scheme = parse_dvfs_scheme(scheme);
  std::optional<DvfsOutcome> finished;
  {
    const py::gil_scoped_release python_threads_run_meanwhile;
    const std::lock_guard<std::mutex> kernel(one_kernel_at_a_time);
    const Chip chip(config);
    const SimulationResult race_to_idle = simulate_race_to_idle(chip, workload);
    finished = run_dvfs(chip, workload, dvfs_scheme, race_to_idle, deadline_ms * 1e6);
  }
  const DvfsOutcome& outcome = *finished;
  return py::dict("report_json"_a = dvfs_json(outcome, config, workload).dump(2),
                  "race_to_idle"_a = run_texts(outcome.race_to_idle, config, workload, "tlm"),
                  "scheduled"_a = run_texts(outcome.scheduled, config, workload, "tlm"));
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

void sweep(const std::string& config_path, const std::vector<std::string>& overrides,
           const std::vector<std::string>& workload_paths,
           const std::vector<std::pair<std::string, std::string>>& params, const std::string& out_dir, unsigned jobs,
           const std::string& fidelity, bool resume) {
  SweepOptions options;
  options.config_path = config_path;
  options.overrides = overrides;
  options.workload_paths = workload_paths;
  for (const auto& [key, spec] : params) options.parameters.push_back(parse_sweep_parameter(key + "=" + spec));
  options.out_dir = out_dir;
  options.jobs = jobs;
  options.fidelity = parse_fidelity(fidelity);
  options.resume = resume;
  py::gil_scoped_release no_python_while_the_workers_run;
  run_sweep(options);
}

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
  py::class_<Workload>(m, "Workload")
      .def_property_readonly("name", &Workload::name)
      .def_property_readonly("file", &Workload::file)
      .def_property_readonly("layer_names",
                             [](const Workload& w) {
                               std::vector<std::string> names;
                               for (const Layer& layer : w.layers()) names.push_back(layer.name);
                               return names;
                             })
      .def("__repr__", [](const Workload& w) { return "<ergon workload " + w.name() + " from " + w.file() + ">"; });

  m.def(
      "load_config",
      static_cast<AcceleratorConfig (*)(const std::string&, const std::vector<std::string>&)>(&load_accelerator_config),
      "path"_a, "overrides"_a = std::vector<std::string>{});
  // The config schema's declarations and a loaded config's values (`config keys`, `config show`), as JSON.
  m.def("config_keys_json", [] { return config_keys_json(accelerator_config_keys()).dump(); });
  m.def("config_values_json", [](const AcceleratorConfig& config) { return accelerator_config_values(config).dump(); });
  m.def("load_workload", &load_workload, "path"_a);
  m.def("simulate", &simulate, "config"_a, "workload"_a, "fidelity"_a = "tlm", "batch"_a = std::nullopt);
  m.def("dvfs", &dvfs, "config"_a, "workload"_a, "scheme"_a, "deadline_ms"_a = 0.0);
  m.def("estimator_names", &estimator_names);
  m.def("estimate", &estimate, "name"_a, "workload"_a, "config"_a = nullptr,
        "options"_a = std::map<std::string, std::string>{});
  m.def("sweep", &sweep, "config_path"_a, "overrides"_a, "workload_paths"_a, "params"_a, "out_dir"_a, "jobs"_a,
        "fidelity"_a, "resume"_a);
  m.def("dvfs_scheme_names", &dvfs_scheme_names);
  m.def("fidelity_names", [] {
    return std::vector<std::string>{fidelity_name(Fidelity::kTransactionLevel),
                                    fidelity_name(Fidelity::kCycleAccurate)};
  });
  m.def("default_config_path", &default_config_path);
}
