"""Ergon from Python: load configs and workloads, simulate, estimate and sweep (docs/python.md).

    import ergon
    config = ergon.load_config("configs/eyeriss.yaml", {"glb.size_kib": 64})
    result = ergon.simulate(config, ergon.load_workload("workloads/alexnet.yaml"))
    print(result.total["latency_ns"], result.total["energy_pj"]["total"])
    frame = result.to_pandas()   # layers.csv as a DataFrame

Figures are those the command line writes (report.json, layers.csv, results.csv), computed by the same
library. Bad inputs raise ergon.InputError (a ValueError) whose message names the file, line and key.
"""
import collections.abc
import io
import json
import math
import numbers
import os
import pathlib

from ergon import _paths

# The shipped data (configs, energy tables, workloads, reference figures) of this build or install, unless
# the user points ERGON_DATA_DIR elsewhere; set before the library first looks for it.
os.environ.setdefault("ERGON_DATA_DIR", _paths.DATA_DIR)

from ergon import _ergon  # noqa: E402  (needs ERGON_DATA_DIR)
from ergon._ergon import AcceleratorConfig, InputError, Interrupted, Workload  # noqa: E402,F401
from ergon._ergon import MAX_BATCH, MAX_JOBS  # noqa: E402  (the command line's bounds)

__all__ = ["load_config", "config_keys", "load_workload", "simulate", "dvfs", "estimators", "estimate", "sweep", "Config",
           "Result", "DvfsResult", "SweepResult", "InputError", "Interrupted", "data_dir", "MAX_BATCH", "MAX_JOBS"]


def data_dir():
    """The folder holding configs/, power/tables/, workloads/ and reference/."""
    return os.environ["ERGON_DATA_DIR"]


# ---- argument checks: every public function checks its arguments before the library sees them, and says
# which function and argument is wrong, as the command line names its option. A wrong type raises
# TypeError; a value out of range raises InputError (a ValueError) with the command line's bound.

def _describe(value):
    """How a message names a value the caller passed: its type, and the value when short."""
    if value is None:
        return "None"
    if isinstance(value, (Config, AcceleratorConfig)):
        return f"an ergon.Config ({value.name})"
    if isinstance(value, Workload):
        return f"an ergon.Workload ({value.name})"
    kind = type(value).__name__
    text = repr(os.fspath(value) if isinstance(value, os.PathLike) else value)
    return f"the {kind} {text}" if len(text) <= 60 else f"a {kind}"


def _check_path(function, argument, value):
    """A file or folder path: a str or an os.PathLike, not empty. Returns it as a str."""
    if isinstance(value, bool) or not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"{function}: {argument} must be a path (str or os.PathLike), not {_describe(value)}")
    path = os.fspath(value)
    if not isinstance(path, str):
        raise TypeError(f"{function}: {argument} must be a text path, not {_describe(path)}")
    if not path:
        raise InputError(f"{function}: {argument}: the path is empty")
    return path


def _loaded(function, argument, value, kind, loader):
    """`value` if it is a `kind` (Config or Workload); else a TypeError that says how to get one."""
    if isinstance(value, kind):
        return value
    other = Workload if kind is Config else Config
    if isinstance(value, other):
        hint = "; are the config and the workload swapped?"
    elif isinstance(value, (str, os.PathLike)):
        hint = f"; load the file with ergon.{loader}(path) first"
    else:
        hint = ""
    raise TypeError(f"{function}: {argument} must be an ergon.{kind.__name__} (from ergon.{loader}), "
                    f"not {_describe(value)}{hint}")


def _check_int(function, argument, value, lowest, highest, unit):
    """An integer (not a bool) from `lowest` to `highest`."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{function}: {argument} must be an integer, not {_describe(value)}")
    if not lowest <= value <= highest:
        raise InputError(f"{function}: {argument}: {value} is not in range {lowest} to {highest} ({unit})")
    return int(value)


def _check_flag(function, argument, value):
    if not isinstance(value, bool):
        raise TypeError(f"{function}: {argument} must be True or False, not {_describe(value)}")
    return value


def _alternatives(names):
    quoted = [f"'{name}'" for name in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


def _check_choice(function, argument, value, choices):
    if not isinstance(value, str):
        raise TypeError(f"{function}: {argument} must be a str ({_alternatives(choices)}), not {_describe(value)}")
    if value not in choices:
        raise InputError(f"{function}: {argument} must be {_alternatives(choices)}, not {value!r}")
    return value


def _setting(function, argument, key, value):
    """An override's or option's value as the command line's text: numbers, strings and bools only."""
    if not isinstance(key, str):
        raise TypeError(f"{function}: {argument}: the keys must be str, not {_describe(key)}")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (numbers.Real, str)):
        return str(value)
    raise TypeError(f"{function}: {argument}[{key!r}] must be a number, str or bool, not {_describe(value)}")


class Config:
    """An accelerator config as loaded (docs/config.md), with the file and overrides it came from.

    `path`: str or os.PathLike; `overrides`: dict of key path (str) to value (int, float, str or bool)."""

    def __init__(self, path, overrides):
        self.path = _check_path("load_config", "path", path)
        if not isinstance(overrides, collections.abc.Mapping):
            raise TypeError("load_config: overrides must be a dict of key path to value, e.g. "
                            f"{{'glb.size_kib': 64}}, not {_describe(overrides)}")
        self.overrides = [f"{key}={_setting('load_config', 'overrides', key, value)}"
                          for key, value in overrides.items()]
        self._native = _ergon.load_config(self.path, self.overrides)

    @property
    def name(self):
        return self._native.name

    @property
    def values(self):
        """Every key that applies to this config with its value, defaults filled in, nested as in the YAML
        (`ergon config show --format json` without the resolved energy.table_file)."""
        return json.loads(_ergon.config_values_json(self._native))

    def __repr__(self):
        return f"<ergon.Config {self.name} from {self.path} {self.overrides}>"


def load_config(path: "str | os.PathLike", overrides: "dict[str, int | float | str | bool] | None" = None) -> Config:
    """Loads and checks an accelerator config (str or os.PathLike path); `overrides` maps key paths to values
    (int, float, str or bool), as `--set` does. Bad values raise InputError naming the file or override."""
    return Config(path, {} if overrides is None else overrides)


def config_keys():
    """The config schema (docs/config.md, `ergon config keys`): a list of dicts, one per key, with its `key`
    path, `type`, `default`, `unit`, `range`, `choices`, `applies_when` and `help`. load_config checks
    overrides against these same declarations."""
    return json.loads(_ergon.config_keys_json())


def load_workload(path_or_onnx: "str | os.PathLike") -> Workload:
    """Loads a workload YAML or an ONNX model (docs/workloads.md) from a str or os.PathLike path."""
    return _ergon.load_workload(_check_path("load_workload", "path_or_onnx", path_or_onnx))


def _pandas():
    try:
        import pandas
    except ImportError as error:  # pragma: no cover - depends on the interpreter
        raise ImportError("to_pandas() needs pandas (Debian: python3-pandas; scripts/setup.sh installs it)") from error
    return pandas


class Result:
    """One simulation: `report` is report.json as a dict, `layers` its per-layer entries, `total` the totals,
    `layers_csv` the text of layers.csv (docs/simulator.md, "Outputs")."""

    def __init__(self, texts):
        self.report = json.loads(texts["report_json"])
        self.layers_csv = texts["layers_csv"]
        self.layers = self.report["layers"]
        self.total = self.report["total"]

    def to_pandas(self):
        """One row per layer, the columns of layers.csv."""
        return _pandas().read_csv(io.StringIO(self.layers_csv))

    def __repr__(self):
        return (f"<ergon.Result {self.report['workload']['name']} on {self.report['config']['name']}: "
                f"{self.total['latency_ns'] / 1e6:.3f} ms, {self.total['energy_pj']['total'] / 1e9:.4f} mJ>")


def simulate(config: Config, workload: Workload, fidelity: str = "tlm", batch: "int | None" = None) -> Result:
    """Simulates `workload` (an ergon.Workload) on `config` (an ergon.Config) at `fidelity` ("tlm": transaction
    level, or "cycle": cycle accurate); `batch` (int, 1 to ergon.MAX_BATCH) images per layer, None: each
    layer's own. Ctrl-C stops the simulation within a step and raises KeyboardInterrupt."""
    _loaded("simulate", "config", config, Config, "load_config")
    _loaded("simulate", "workload", workload, Workload, "load_workload")
    _check_choice("simulate", "fidelity", fidelity, _ergon.fidelity_names())
    if batch is not None:
        batch = _check_int("simulate", "batch", batch, 1, MAX_BATCH, "images per layer, as ergon run --batch")
    return Result(_ergon.simulate(config._native, workload, fidelity, batch))


class DvfsResult:
    """ARADA's per-layer DVFS (docs/dvfs.md): `report` is the dvfs report.json as a dict; `race_to_idle` and
    `scheduled` are the two simulations it compares."""

    def __init__(self, texts):
        self.report = json.loads(texts["report_json"])
        self.race_to_idle = Result(texts["race_to_idle"])
        self.scheduled = Result(texts["scheduled"])
        self.total = self.report["total"]


def dvfs(config: Config, workload: Workload, scheme: str = "vf-oh-q",
         deadline_ms: "float | None" = None) -> DvfsResult:
    """Race to idle, ARADA's allocation under `scheme` (str: rti, ideal, vf-oh, vf-oh-q) and its re-simulation.
    `deadline_ms` (a positive finite number, at least race to idle's latency) spends the slack up to it;
    None keeps race to idle's latency."""
    _loaded("dvfs", "config", config, Config, "load_config")
    _loaded("dvfs", "workload", workload, Workload, "load_workload")
    _check_choice("dvfs", "scheme", scheme, _ergon.dvfs_scheme_names())
    if deadline_ms is None:
        deadline_ms = 0.0  # the library's "keep race to idle's latency"
    elif isinstance(deadline_ms, bool) or not isinstance(deadline_ms, numbers.Real):
        raise TypeError(f"dvfs: deadline_ms must be a number of milliseconds or None, not {_describe(deadline_ms)}")
    elif not (math.isfinite(deadline_ms) and deadline_ms > 0):
        raise InputError(f"dvfs: deadline_ms: {deadline_ms} ms is not a positive finite latency "
                         "(None keeps race to idle's latency)")
    return DvfsResult(_ergon.dvfs(config._native, workload, scheme, float(deadline_ms)))


def estimators():
    """The names of the analytical estimators (docs/architecture.md, "Estimators")."""
    return list(_ergon.estimator_names())


def estimate(name: str, workload: Workload, config: "Config | None" = None, **options) -> dict:
    """An analytical estimate: the dict `ergon estimate NAME --format json` prints, plus its text table under
    "table". `name` is one of estimators(); `config` an ergon.Config for the estimators that model a chip.
    Options are the command's, with underscores for dashes (board="tx2", no_control=True): int, float, str,
    True for a flag, None or False to leave one out."""
    if not isinstance(name, str):
        raise TypeError(f"estimate: name must be a str (one of ergon.estimators()), not {_describe(name)}")
    _loaded("estimate", "workload", workload, Workload, "load_workload")
    if config is not None:
        _loaded("estimate", "config", config, Config, "load_config")
    settings = {}
    for key, value in options.items():
        if value is None or value is False:
            continue
        settings[key.replace("_", "-")] = "1" if value is True else _setting("estimate", "options", key, value)
    forms = _ergon.estimate(name, workload, config._native if config is not None else None, settings)
    result = json.loads(forms["json"])
    result["table"] = forms["table"]
    return result


class SweepResult:
    """A finished sweep: its folder, `results_csv` (docs/sweep.md, "Output") and `to_pandas()`."""

    def __init__(self, out_dir):
        self.out_dir = pathlib.Path(out_dir)
        self.results_csv = self.out_dir / "results.csv"

    def to_pandas(self):
        return _pandas().read_csv(self.results_csv)


def _spec(key, values):
    """A parameter's values as `--param`'s spec: a range spec as it is, or a list joined by commas."""
    if isinstance(values, str):
        return values  # "8:512:*2", "lpddr4,hbm2"
    if not isinstance(values, (list, tuple, range)):
        raise TypeError(f"sweep: params[{key!r}] must be a list of values or a range spec such as '8:512:*2', "
                        f"not {_describe(values)}")
    if not values:
        raise InputError(f"sweep: params[{key!r}]: no values")
    texts = [_setting("sweep", "params", key, v) for v in values]
    for text in texts:
        if "," in text:  # joined with commas, it would silently become several points
            raise InputError(f"sweep: params[{key!r}]: the value {text!r} holds a comma, which separates values; "
                             "give each value as its own list item")
    return ",".join(texts)


def _workload_paths(workloads):
    """The files of `workloads`: a list (or tuple) of paths or loaded workloads, at least one."""
    if isinstance(workloads, (str, os.PathLike, Workload)) or not isinstance(workloads, (list, tuple)):
        raise TypeError("sweep: workloads must be a list of workload paths or ergon.Workloads, not "
                        f"{_describe(workloads)}; a single one goes in a list: [workload]")
    if not workloads:
        raise InputError("sweep: workloads: the list is empty; give at least one workload")
    return [w.file if isinstance(w, Workload) else _check_path("sweep", "workloads", w) for w in workloads]


def sweep(config: Config, workloads: "list[str | os.PathLike | Workload]",
          params: "dict[str, list | str]", out: "str | os.PathLike", jobs: int = 1, fidelity: str = "tlm",
          resume: bool = False) -> "SweepResult":
    """Runs every point of the grid in `jobs` worker processes (an int, 1 to ergon.MAX_JOBS; SystemC allows
    one kernel per process) and writes `out` (a path)/results.csv and sweep.json exactly as `ergon sweep`
    does. `config` is an ergon.Config; `workloads` a list of paths or loaded workloads; `params` (a dict, at
    least one key) maps key paths to a list of values or a range spec ("8:512:*2"); `fidelity` "tlm" or
    "cycle"; `resume` (bool) continues the sweep in `out`."""
    _loaded("sweep", "config", config, Config, "load_config")
    paths = _workload_paths(workloads)
    if not isinstance(params, collections.abc.Mapping):
        raise TypeError("sweep: params must be a dict of key path to values, e.g. {'glb.size_kib': [32, 64]}, "
                        f"not {_describe(params)}")
    if not params:
        raise InputError("sweep: params: the dict is empty; give at least one key path to sweep, as ergon sweep "
                         "--param does")
    for key in params:
        if not isinstance(key, str):
            raise TypeError(f"sweep: params: the keys must be str, not {_describe(key)}")
    specs = [(key, _spec(key, values)) for key, values in params.items()]
    out = _check_path("sweep", "out", out)
    jobs = _check_int("sweep", "jobs", jobs, 1, MAX_JOBS, "worker processes, as ergon sweep --jobs")
    _check_choice("sweep", "fidelity", fidelity, _ergon.fidelity_names())
    _check_flag("sweep", "resume", resume)
    _ergon.sweep(config.path, config.overrides, paths, specs, out, jobs, fidelity, resume)
    return SweepResult(out)
