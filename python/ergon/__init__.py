"""Ergon from Python: load configs and workloads, simulate, estimate and sweep (docs/python.md).

    import ergon
    config = ergon.load_config("configs/eyeriss.yaml", {"glb.size_kib": 64})
    result = ergon.simulate(config, ergon.load_workload("workloads/alexnet.yaml"))
    print(result.total["latency_ns"], result.total["energy_pj"]["total"])
    frame = result.to_pandas()   # layers.csv as a DataFrame

Figures are those the command line writes (report.json, layers.csv, results.csv), computed by the same
library. Bad inputs raise ergon.InputError (a ValueError) whose message names the file, line and key.
"""
import io
import json
import os
import pathlib

from ergon import _paths

# The shipped data (configs, energy tables, workloads, reference figures) of this build or install, unless
# the user points ERGON_DATA_DIR elsewhere; set before the library first looks for it.
os.environ.setdefault("ERGON_DATA_DIR", _paths.DATA_DIR)

from ergon import _ergon  # noqa: E402  (needs ERGON_DATA_DIR)
from ergon._ergon import AcceleratorConfig, InputError, Interrupted, Workload  # noqa: E402,F401

__all__ = ["load_config", "load_workload", "simulate", "dvfs", "estimators", "estimate", "sweep", "Config",
           "Result", "DvfsResult", "SweepResult", "InputError", "Interrupted", "data_dir"]


def data_dir():
    """The folder holding configs/, power/tables/, workloads/ and reference/."""
    return os.environ["ERGON_DATA_DIR"]


def _setting(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class Config:
    """An accelerator config as loaded (docs/config.md), with the file and overrides it came from."""

    def __init__(self, path, overrides):
        self.path = str(path)
        self.overrides = [f"{key}={_setting(value)}" for key, value in overrides.items()]
        self._native = _ergon.load_config(self.path, self.overrides)

    @property
    def name(self):
        return self._native.name

    def __repr__(self):
        return f"<ergon.Config {self.name} from {self.path} {self.overrides}>"


def load_config(path, overrides=None):
    """Loads and checks an accelerator config; `overrides` maps key paths to values, as `--set` does."""
    return Config(path, overrides or {})


def load_workload(path_or_onnx):
    """Loads a workload YAML or an ONNX model (docs/workloads.md)."""
    return _ergon.load_workload(str(path_or_onnx))


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


def simulate(config, workload, fidelity="tlm", batch=None):
    """Simulates `workload` on `config` ("tlm": transaction level, or "cycle": cycle accurate)."""
    return Result(_ergon.simulate(config._native, workload, fidelity, batch))


class DvfsResult:
    """ARADA's per-layer DVFS (docs/dvfs.md): `report` is the dvfs report.json as a dict; `race_to_idle` and
    `scheduled` are the two simulations it compares."""

    def __init__(self, texts):
        self.report = json.loads(texts["report_json"])
        self.race_to_idle = Result(texts["race_to_idle"])
        self.scheduled = Result(texts["scheduled"])
        self.total = self.report["total"]


def dvfs(config, workload, scheme="vf-oh-q", deadline_ms=None):
    """Race to idle, ARADA's allocation under `scheme` (rti, ideal, vf-oh, vf-oh-q) and its re-simulation."""
    return DvfsResult(_ergon.dvfs(config._native, workload, scheme, float(deadline_ms or 0.0)))


def estimators():
    """The names of the analytical estimators (docs/architecture.md, "Estimators")."""
    return list(_ergon.estimator_names())


def estimate(name, workload, config=None, **options):
    """An analytical estimate: the dict `ergon estimate NAME --format json` prints, plus its text table under
    "table". Options are the command's, with underscores for dashes (board="tx2", no_control=True)."""
    settings = {}
    for key, value in options.items():
        if value is None or value is False:
            continue
        settings[key.replace("_", "-")] = "1" if value is True else str(value)
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


def _spec(values):
    if isinstance(values, str):
        return values  # "8:512:*2", "lpddr4,hbm2"
    return ",".join(_setting(v) for v in values)


def sweep(config, workloads, params, out, jobs=1, fidelity="tlm", resume=False):
    """Runs every point of the grid in `jobs` worker processes (SystemC allows one kernel per process) and
    writes `out`/results.csv and sweep.json exactly as `ergon sweep` does. `params` maps key paths to a list
    of values or a range spec ("8:512:*2"); `workloads` are paths or loaded workloads."""
    paths = [w.file if isinstance(w, Workload) else str(w) for w in workloads]
    _ergon.sweep(config.path, config.overrides, paths, [(key, _spec(v)) for key, v in params.items()], str(out),
                 int(jobs), fidelity, bool(resume))
    return SweepResult(out)
