"""Ergon from Python: load configs and workloads, simulate, estimate and sweep (docs/python.md).

    import ergon
    config = ergon.load_config("eyeriss", {"glb.size_kib": 64})
    result = ergon.simulate(config, ergon.load_workload("alexnet"))
    print(result.total["latency_ns"], result.total["energy_pj"]["total"])
    frame = result.to_pandas()   # layers.csv as a DataFrame

Figures are those the command line writes (report.json, layers.csv, results.csv), computed by the same
library. Bad inputs raise ergon.InputError (a ValueError) whose message names the file, line and key. The
library prints nothing: what it has to say goes to the "ergon" logger, and a model import's warnings to
the warnings module.
"""
import collections.abc
import concurrent.futures
import contextlib
import io
import json
import logging
import math
import numbers
import os
import pathlib
import re
import tempfile
import threading
import warnings

from ergon import _paths

# The shipped data (configs, energy tables, workloads, reference figures) of this build or install, unless
# the user points ERGON_DATA_DIR elsewhere; set before the library first looks for it.
os.environ.setdefault("ERGON_DATA_DIR", _paths.DATA_DIR)

from ergon import _ergon  # noqa: E402  (needs ERGON_DATA_DIR)
from ergon._ergon import AcceleratorConfig, InputError, Interrupted, Workload  # noqa: E402,F401
from ergon._ergon import MAX_BATCH, MAX_JOBS  # noqa: E402  (the command line's bounds)

__version__ = _paths.VERSION

__all__ = ["load_config", "config_keys", "configs", "workloads", "load_workload", "simulate", "dvfs", "estimators",
           "estimate", "sweep", "sweep_merge", "Config", "Workload", "Result", "DvfsResult", "SweepResult",
           "InputError", "Interrupted", "data_dir", "MAX_BATCH", "MAX_JOBS"]

_log = logging.getLogger("ergon")
_log.addHandler(logging.NullHandler())  # a library logs; the application decides where it goes

InputError.__doc__ = """A bad input: a file, a key, a value or an argument out of range (a ValueError).

The message names the file, line, column and key, or the function and argument.

Examples
--------
>>> try:
...     ergon.load_config("eyeriss", {"glb.size_kb": 64})
... except ergon.InputError as error:
...     print(error)
overrides['glb.size_kb'] = 64: glb.size_kb: unknown key 'size_kb'; did you mean 'size_kib'?
"""

Interrupted.__doc__ = """Ctrl-C (SIGINT) stopped a simulation or a sweep (a KeyboardInterrupt).

A sweep keeps its finished points in its `out` folder; ``sweep(..., resume=True)`` completes it.

Examples
--------
>>> issubclass(ergon.Interrupted, KeyboardInterrupt)
True
"""


def data_dir():
    """The folder holding the shipped data: configs/, power/tables/, workloads/ and reference/.

    ``$ERGON_DATA_DIR`` when set, else the data installed with this package (or of the build it belongs to).

    Returns
    -------
    str
        The folder's path.

    Raises
    ------
    Nothing.

    Examples
    --------
    >>> import os
    >>> os.path.isdir(os.path.join(ergon.data_dir(), "configs"))
    True
    """
    return os.environ["ERGON_DATA_DIR"]


# ---- messages in Python's words: the library's messages name the command line's options ("pass --resume"),
# which a Python caller spells as arguments ("pass resume=True").

_FLAG_WORDS = [
    (re.compile(r"--set ([^\s=:]+)="), r"overrides['\1'] = "),
    (re.compile(r"--param ([^\s=:]+)="), r"params['\1'] = "),
    (re.compile(r"--param\b"), "params"),
    (re.compile(r"--link\s+([^\s=]+)\s*=\s*"), r"links['\1'] = "),
    (re.compile(r"--link ([^\s=:]+):"), r"links: '\1':"),
    (re.compile(r"--link\b"), "links"),
    (re.compile(r"--batch (\w+)"), r"batch=\1"),
    (re.compile(r"split the sweep with --shard, or "), "narrow the sweep, or "),
    (re.compile(r" \(or --resume them\)"), " (or resume them)"),  # sweep_merge: shards are ergon sweep's
    (re.compile(r"--(resume|skip-unsupported)\b"), lambda m: m.group(1).replace("-", "_") + "=True"),
    (re.compile(r"--input-shape ([^\s=]+)=(\S+)"),
     lambda m: f"input_shapes={{'{m.group(1)}': [{', '.join(m.group(2).split('x'))}]}}"),
    (re.compile(r"--input-value ([^\s=]+)=(\S+)"), lambda m: f"input_values={{'{m.group(1)}': [{m.group(2)}]}}"),
    (re.compile(r"--input-shape\b"), "input_shapes"),
    (re.compile(r"--input-value\b"), "input_values"),
    (re.compile(r"--workload\b"), "workloads"),
    (re.compile(r"`ergon (configs|workloads)`"), r"ergon.\1()"),
    (re.compile(r"`ergon config keys`"), "ergon.config_keys()"),
    (re.compile(r"`ergon config show`"), "Config.values"),
    (re.compile(r"--([a-z][a-z-]*[a-z])\b"), lambda m: m.group(1).replace("-", "_")),
]


def _python_words(text):
    """A library message with the command line's options spelled as this package's arguments."""
    for pattern, words in _FLAG_WORDS:
        text = pattern.sub(words, text)
    return text


@contextlib.contextmanager
def _in_python_words():
    """Re-raises the library's errors (same type) with their messages in Python's words."""
    try:
        yield
    except (InputError, Interrupted, RuntimeError) as error:
        text = str(error)
        worded = _python_words(text)
        if worded == text:
            raise
        raise type(error)(worded) from None


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


def _shipped_file(function, argument, part, value):
    """A path as given when it names a file; else the shipped file a name ("eyeriss", "configs/eyeriss.yaml")
    names, from any folder. Neither: an InputError suggesting the closest shipped name."""
    path = _check_path(function, argument, value)
    resolved = _ergon.resolve_shipped(part, path)
    if os.path.exists(resolved):
        return resolved
    why = _ergon.why_not_shipped(part, path)
    listing = "ergon.configs()" if part == "config" else "ergon.workloads()"
    why = _python_words(why) if why else f"and no shipped {part} is found in {data_dir()} ({listing} is empty)"
    raise InputError(f"{function}: {argument}: {path!r} is neither a file {why}")


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


def _check_positive(function, argument, value, unit):
    """A finite number above 0 (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{function}: {argument} must be a number, not {_describe(value)}")
    if not (math.isfinite(value) and value > 0):
        raise InputError(f"{function}: {argument}: {value} is not a positive finite number ({unit})")
    return float(value)


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


def _pandas():
    try:
        import pandas
    except ImportError as error:  # pragma: no cover - depends on the interpreter
        raise ImportError("to_pandas() needs pandas (Debian: python3-pandas; scripts/setup.sh installs it)") from error
    return pandas


# ---- the shipped parts

def _shipped(part):
    return dict(_ergon.shipped_files(part))


def configs():
    """The shipped accelerator configs, by the name ``load_config`` takes.

    Returns
    -------
    dict of str to str
        Name (``"eyeriss"``, sorted) to the file's path under ``data_dir()``; empty when the data cannot
        be found.

    Raises
    ------
    Nothing.

    Examples
    --------
    >>> "eyeriss" in ergon.configs()
    True
    >>> ergon.configs()["eyeriss"].endswith("configs/eyeriss.yaml")
    True
    """
    return _shipped("config")


def workloads():
    """The shipped workloads, by the name ``load_workload`` takes (``"alexnet"``, ``"cnnergy/alexnet"``).

    Returns
    -------
    dict of str to str
        Name (sorted) to the file's path under ``data_dir()``: YAML workloads and ONNX models; empty when
        the data cannot be found.

    Raises
    ------
    Nothing.

    Examples
    --------
    >>> names = ergon.workloads()
    >>> "alexnet" in names and "resnet8" in names
    True
    """
    return _shipped("workload")


# ---- configs

class Config:
    """An accelerator config as loaded (docs/config.md), with the file and overrides it came from.

    Made by ``load_config``; ``sweep`` passes its file and overrides on to every point.

    Parameters
    ----------
    path : str or os.PathLike
        A config file, or a shipped config's name (``configs()``).
    overrides : dict of str to int, float, str or bool
        Key path to value, as ``ergon run --set`` takes them.

    Attributes
    ----------
    path : str
        The config file (a shipped name resolved to its file).
    overrides : list of str
        The overrides as ``key=value`` assignments.
    name : str
        The config's name.
    values : dict
        Every key that applies with its value, defaults filled in.

    Raises
    ------
    TypeError
        An argument of the wrong type.
    ergon.InputError
        A path that is neither a file nor a shipped name, a bad file or a bad override.

    Examples
    --------
    >>> config = ergon.Config("eyeriss", {"glb.size_kib": 64})
    >>> config.name, config.overrides
    ('eyeriss', ['glb.size_kib=64'])
    """

    def __init__(self, path, overrides):
        self.path = _shipped_file("load_config", "path", "config", path)
        if not isinstance(overrides, collections.abc.Mapping):
            raise TypeError("load_config: overrides must be a dict of key path to value, e.g. "
                            f"{{'glb.size_kib': 64}}, not {_describe(overrides)}")
        self.overrides = [f"{key}={_setting('load_config', 'overrides', key, value)}"
                          for key, value in overrides.items()]
        with _in_python_words():
            self._native = _ergon.load_config(self.path, self.overrides)

    @property
    def name(self):
        """The config's name (str), as reports show it."""
        return self._native.name

    @property
    def values(self):
        """Every key that applies to this config with its value, defaults filled in, nested as in the YAML
        (dict; ``ergon config show --format json`` without the resolved energy.table_file)."""
        return json.loads(_ergon.config_values_json(self._native))

    def __repr__(self):
        return f"<ergon.Config {self.name} from {self.path} {self.overrides}>"


def load_config(path, overrides=None):
    """Loads and checks an accelerator config (docs/config.md).

    Parameters
    ----------
    path : str or os.PathLike
        A config file, or a shipped config's name: ``"eyeriss"``, or ``"configs/eyeriss.yaml"`` as in the
        source tree, from any folder (``configs()`` lists them). A file of that name in the current folder
        comes first.
    overrides : dict of str to int, float, str or bool, optional
        Key path to value, as ``ergon run --set key=value`` takes them (``config_keys()`` lists the keys).

    Returns
    -------
    Config
        The loaded config, with its file and overrides.

    Raises
    ------
    TypeError
        `path` is not a str or os.PathLike, or `overrides` is not a dict of str to a number, str or bool.
    ergon.InputError
        `path` is neither a file nor a shipped name (the message suggests the closest), or the file or an
        override is bad (the message names the file, line and key).

    Examples
    --------
    >>> config = ergon.load_config("eyeriss", {"glb.size_kib": 64, "dram.preset": "lpddr4"})
    >>> config.name, config.values["glb"]["size_kib"]
    ('eyeriss', 64.0)
    """
    return Config(path, {} if overrides is None else overrides)


def config_keys():
    """The config schema (docs/config.md, ``ergon config keys``): every key ``load_config`` accepts.

    Returns
    -------
    list of dict
        One dict per key with its ``key`` path, ``type``, ``default``, ``unit``, ``range``, ``choices``,
        ``applies_when`` and ``help``.

    Raises
    ------
    Nothing.

    Examples
    --------
    >>> keys = {entry["key"]: entry for entry in ergon.config_keys()}
    >>> keys["glb.size_kib"]["unit"]
    'KiB'
    """
    return json.loads(_ergon.config_keys_json())


# ---- workloads

def _name_map(function, argument, value, convert, what):
    """A dict of input name (str) to a list of numbers, each checked by `convert`; None: empty."""
    if value is None:
        return {}
    if not isinstance(value, collections.abc.Mapping):
        raise TypeError(f"{function}: {argument} must be a dict of input name to {what}, not {_describe(value)}")
    checked = {}
    for name, numbers_given in value.items():
        if not isinstance(name, str) or not name:
            raise TypeError(f"{function}: {argument}: the keys must be input names (non-empty str), "
                            f"not {_describe(name)}")
        if isinstance(numbers_given, (str, bytes)) or not isinstance(numbers_given, collections.abc.Sequence):
            raise TypeError(f"{function}: {argument}[{name!r}] must be a list of {what}, not "
                            f"{_describe(numbers_given)}")
        if not numbers_given:
            raise InputError(f"{function}: {argument}[{name!r}]: the list is empty")
        checked[name] = [convert(f"{argument}[{name!r}]", position, number)
                         for position, number in enumerate(numbers_given)]
    return checked


def _dimension(argument, position, value):
    # 0 is an empty dimension (a decoder's first step has no KV cache), but the batch is at least 1.
    least = 1 if position == 0 else 0
    return _check_int("load_workload", f"{argument}[{position}]", value, least, 2 ** 31,
                      "the batch" if position == 0 else "a dimension")


def _input_value(argument, position, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"load_workload: {argument}[{position}] must be a number, not {_describe(value)}")
    if not math.isfinite(value):
        raise InputError(f"load_workload: {argument}[{position}]: {value} is not a finite number")
    return float(value)


def _is_onnx(path):
    return path.endswith(".onnx")


def _import_options(input_shapes, input_values, skip_unsupported, loop_trips):
    """An ONNX model's import options, checked, as a hashable tuple (what a sweep's workers are sent)."""
    shapes = _name_map("load_workload", "input_shapes", input_shapes, _dimension, "dimensions (int)")
    values = _name_map("load_workload", "input_values", input_values, _input_value, "numbers")
    _check_flag("load_workload", "skip_unsupported", skip_unsupported)
    trips = 0
    if loop_trips is not None:
        trips = _check_int("load_workload", "loop_trips", loop_trips, 1, _ergon.MAX_LOOP_TRIPS,
                           "trips of each Loop whose count is computed at run time")
    return (tuple(sorted((k, tuple(v)) for k, v in shapes.items())),
            tuple(sorted((k, tuple(v)) for k, v in values.items())), skip_unsupported, trips)


_NO_IMPORT_OPTIONS = ((), (), False, 0)


def load_workload(path, input_shapes=None, input_values=None, skip_unsupported=False, loop_trips=None):
    """Loads a workload YAML or imports an ONNX model (docs/workloads.md).

    Parameters
    ----------
    path : str or os.PathLike
        A workload file (``.yaml``) or ONNX model (``.onnx``), or a shipped workload's name: ``"alexnet"``,
        ``"cnnergy/alexnet"``, or ``"workloads/alexnet.yaml"`` from any folder (``workloads()`` lists them).
    input_shapes : dict of str to list of int, optional
        ONNX models: an input's shape, e.g. ``{"input": [1, 3, 224, 224]}`` (``--input-shape``); dynamic
        dimensions need it. The first dimension (the batch) is 1 to 2**31, the others 0 to 2**31.
    input_values : dict of str to list of float, optional
        ONNX models: make an input a constant, e.g. ``{"length": [16000]}`` (``--input-value``); it folds
        the If nodes it decides.
    skip_unsupported : bool, default False
        ONNX models: treat operators Ergon cannot lower as free data movement, listed in a note
        (``--skip-unsupported``); False refuses such a model, naming them.
    loop_trips : int, optional
        ONNX models: unroll each Loop whose trip count is computed at run time this many times, 1 to 4096
        (``--loop-trips``).

    Returns
    -------
    Workload
        The loaded workload. An ONNX import's notes go to the "ergon" logger (INFO) and its warnings to
        ``warnings.warn``.

    Raises
    ------
    TypeError
        An argument of the wrong type.
    ergon.InputError
        `path` is neither a file nor a shipped name, the file is bad (the message names the file, line and
        key, or the model's node), an import option is given for a YAML workload, or a value is out of range.

    Examples
    --------
    >>> workload = ergon.load_workload("resnet8")
    >>> workload.name, len(workload.layer_names) > 5
    ('resnet8', True)
    """
    path = _shipped_file("load_workload", "path", "workload", path)
    options = _import_options(input_shapes, input_values, skip_unsupported, loop_trips)
    if not _is_onnx(path):
        if options != _NO_IMPORT_OPTIONS:
            raise InputError(f"load_workload: input_shapes, input_values, skip_unsupported and loop_trips apply to "
                             f"ONNX models (.onnx); {path} is a workload file, whose shapes are written in it")
        with _in_python_words():
            return _ergon.load_workload(path)
    shapes, values, skip, trips = options
    with _in_python_words():
        workload, notes, warned = _ergon.load_onnx(path, dict(shapes), dict(values), skip, trips)
    for note in notes:
        _log.info("%s: %s", path, _python_words(note))
    for warning in warned:
        warnings.warn(f"{path}: {_python_words(warning)}", UserWarning, stacklevel=2)
    workload._import_options = options  # a sweep's workers import the model the same way
    return workload


# ---- simulations

class Result:
    """One simulation (docs/simulator.md, "Outputs"), as ``ergon run`` writes it.

    Made by ``simulate``.

    Parameters
    ----------
    texts : dict
        The library's report.json and layers.csv texts (``report_json``, ``layers_csv``).

    Attributes
    ----------
    report : dict
        report.json.
    layers : list of dict
        Its per-layer entries, every counter under its report column (docs/energy.md).
    total : dict
        Its totals: ``latency_ns``, ``cycles``, ``energy_pj`` (with ``total``) and the counters.
    layers_csv : str
        The text of layers.csv.
    frame : pandas.DataFrame
        layers.csv as a DataFrame (``to_pandas()``).

    Raises
    ------
    Nothing.

    Examples
    --------
    >>> result = ergon.simulate(ergon.load_config("eyeriss"), ergon.load_workload("resnet8"))
    >>> result.total["cycles"] == sum(layer["cycles"] for layer in result.layers)
    True
    """

    def __init__(self, texts):
        self.report = json.loads(texts["report_json"])
        self.layers_csv = texts["layers_csv"]
        self.layers = self.report["layers"]
        self.total = self.report["total"]
        self._frame = None

    def to_pandas(self):
        """layers.csv as a DataFrame: one row per layer, its columns.

        Returns
        -------
        pandas.DataFrame
            A new frame each call.

        Raises
        ------
        ImportError
            pandas is not installed (Debian: python3-pandas).

        Examples
        --------
        >>> result = ergon.simulate(ergon.load_config("eyeriss"), ergon.load_workload("resnet8"))
        >>> len(result.to_pandas()) == len(result.layers)
        True
        """
        return _pandas().read_csv(io.StringIO(self.layers_csv))

    @property
    def frame(self):
        """layers.csv as a DataFrame, read once (pandas.DataFrame)."""
        if self._frame is None:
            self._frame = self.to_pandas()
        return self._frame

    def __repr__(self):
        return (f"<ergon.Result {self.report['workload']['name']} on {self.report['config']['name']}: "
                f"{self.total['latency_ns'] / 1e6:.3f} ms, {self.total['energy_pj']['total'] / 1e9:.4f} mJ>")


def simulate(config, workload, fidelity="tlm", batch=None):
    """Simulates a workload on an accelerator, as ``ergon run`` does.

    Runs in the calling process, one SystemC kernel after another; other Python threads run meanwhile
    (simulations from several threads take turns).

    Parameters
    ----------
    config : Config
        From ``load_config``.
    workload : Workload
        From ``load_workload``.
    fidelity : {"tlm", "cycle"}, default "tlm"
        Transaction level, or cycle accurate.
    batch : int, optional
        Images per layer, 1 to ``MAX_BATCH``; None: each layer's own.

    Returns
    -------
    Result
        report.json and layers.csv as ``ergon run`` writes them.

    Raises
    ------
    TypeError
        `config` or `workload` is not loaded (a path), or an argument has the wrong type.
    ergon.InputError
        `fidelity` is not a choice, `batch` is out of range, or the workload has nothing to simulate.
    KeyboardInterrupt
        Ctrl-C stopped the simulation (within a step of the array); the next call runs as usual.

    Examples
    --------
    >>> result = ergon.simulate(ergon.load_config("eyeriss"), ergon.load_workload("resnet8"), batch=2)
    >>> result.total["latency_ns"] > 0
    True
    """
    _loaded("simulate", "config", config, Config, "load_config")
    _loaded("simulate", "workload", workload, Workload, "load_workload")
    _check_choice("simulate", "fidelity", fidelity, _ergon.fidelity_names())
    if batch is not None:
        batch = _check_int("simulate", "batch", batch, 1, MAX_BATCH, "images per layer, as ergon run --batch")
    with _in_python_words():
        return Result(_ergon.simulate(config._native, workload, fidelity, batch))


class DvfsResult:
    """ARADA's per-layer DVFS (docs/dvfs.md), as ``ergon dvfs`` writes it.

    Made by ``dvfs``.

    Parameters
    ----------
    texts : dict
        The library's texts: ``report_json``, and ``race_to_idle`` and ``scheduled`` as for ``Result``.

    Attributes
    ----------
    report : dict
        The dvfs report.json.
    total : dict
        Its totals, e.g. ``energy_saving_pct`` and ``rti_latency_ns``.
    race_to_idle : Result
        The simulation at the highest operating point (rti_layers.csv).
    scheduled : Result
        The re-simulation under ARADA's allocation (layers.csv).
    frame : pandas.DataFrame
        The scheduled run's layers.csv (``to_pandas()``).

    Raises
    ------
    Nothing.

    Examples
    --------
    >>> outcome = ergon.dvfs(ergon.load_config("hpc_tpu"), ergon.load_workload("resnet8"), "ideal")
    >>> outcome.race_to_idle.total["latency_ns"] == outcome.total["rti_latency_ns"]
    True
    """

    def __init__(self, texts):
        self.report = json.loads(texts["report_json"])
        self.race_to_idle = Result(texts["race_to_idle"])
        self.scheduled = Result(texts["scheduled"])
        self.total = self.report["total"]

    def to_pandas(self):
        """The scheduled run's layers.csv (``ergon dvfs``'s layers.csv) as a DataFrame.

        ``race_to_idle.to_pandas()`` gives rti_layers.csv.

        Returns
        -------
        pandas.DataFrame
            One row per layer, with the operating point each ran at.

        Raises
        ------
        ImportError
            pandas is not installed.

        Examples
        --------
        >>> outcome = ergon.dvfs(ergon.load_config("hpc_tpu"), ergon.load_workload("resnet8"), "ideal")
        >>> len(outcome.to_pandas()) == len(outcome.scheduled.layers)
        True
        """
        return self.scheduled.to_pandas()

    @property
    def frame(self):
        """The scheduled run's layers.csv as a DataFrame, read once (pandas.DataFrame)."""
        return self.scheduled.frame


def dvfs(config, workload, scheme="vf-oh-q", deadline_ms=None, fidelity="tlm", batch=None):
    """Race to idle, ARADA's per-layer voltage and frequency allocation and its re-simulation (docs/dvfs.md).

    Parameters
    ----------
    config : Config
        From ``load_config``: a config with a ``dvfs`` section.
    workload : Workload
        From ``load_workload``.
    scheme : {"rti", "ideal", "vf-oh", "vf-oh-q"}, default "vf-oh-q"
        The allocation: race to idle, ideal switching, with switching overheads, and quantised.
    deadline_ms : float, optional
        A positive finite latency in milliseconds, at least race to idle's: the slack up to it is spent
        saving energy. None keeps race to idle's latency.
    fidelity : {"tlm", "cycle"}, default "tlm"
        Of race to idle and of every schedule, as ``ergon dvfs --fidelity``.
    batch : int, optional
        Images every layer processes together, 1 to ``MAX_BATCH``; None: each layer's own.

    Returns
    -------
    DvfsResult
        The report and both simulations.

    Raises
    ------
    TypeError
        `config` or `workload` is not loaded, or an argument has the wrong type.
    ergon.InputError
        `scheme` or `fidelity` is not a choice, `batch` is out of range, or `deadline_ms` is not a positive
        finite number or below race to idle's latency.

    Examples
    --------
    >>> outcome = ergon.dvfs(ergon.load_config("hpc_tpu"), ergon.load_workload("resnet8"), "ideal")
    >>> outcome.total["latency_kept"], sorted(outcome.total)[:2]
    (True, ['arada_estimated_saving_pct', 'bandwidth_reduction_pct'])
    """
    _loaded("dvfs", "config", config, Config, "load_config")
    _loaded("dvfs", "workload", workload, Workload, "load_workload")
    _check_choice("dvfs", "scheme", scheme, _ergon.dvfs_scheme_names())
    _check_choice("dvfs", "fidelity", fidelity, _ergon.fidelity_names())
    if batch is not None:
        batch = _check_int("dvfs", "batch", batch, 1, MAX_BATCH, "images per layer, as ergon dvfs --batch")
    if deadline_ms is None:
        deadline_ms = 0.0  # the library's "keep race to idle's latency"
    elif isinstance(deadline_ms, bool) or not isinstance(deadline_ms, numbers.Real):
        raise TypeError(f"dvfs: deadline_ms must be a number of milliseconds or None, not {_describe(deadline_ms)}")
    elif not (math.isfinite(deadline_ms) and deadline_ms > 0):
        raise InputError(f"dvfs: deadline_ms: {deadline_ms} ms is not a positive finite latency "
                         "(None keeps race to idle's latency)")
    with _in_python_words():
        return DvfsResult(_ergon.dvfs(config._native, workload, scheme, float(deadline_ms), fidelity, batch))


# ---- analytical estimates

def estimators():
    """The names of the analytical estimators (docs/architecture.md, "Estimators").

    Returns
    -------
    list of str
        In the order ``ergon estimate --help`` lists them.

    Raises
    ------
    Nothing.

    Examples
    --------
    >>> "cnnergy" in ergon.estimators()
    True
    """
    return list(_ergon.estimator_names())


def estimate(name, workload, config=None, **options):
    """An analytical estimate, as ``ergon estimate NAME --format json`` prints it.

    Parameters
    ----------
    name : str
        One of ``estimators()``.
    workload : Workload
        From ``load_workload``.
    config : Config, optional
        For the estimators that model a chip (cnnergy, roofline).
    **options : int, float, str or bool
        The command's options with underscores for dashes (``board="tx2"``, ``no_control=True``): True for
        a flag, None or False to leave one out. A choice matches in any case.

    Returns
    -------
    dict
        The JSON the command prints, plus its text table under ``"table"``.

    Raises
    ------
    TypeError
        An argument of the wrong type.
    ergon.InputError
        An unknown estimator or option, a missing required option or config, or a value outside the choices.

    Examples
    --------
    >>> estimate = ergon.estimate("lahmer", ergon.load_workload("cnnergy/alexnet"), board="xavier-nx")
    >>> "table" in estimate
    True
    """
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
    with _in_python_words():
        forms = _ergon.estimate(name, workload, config._native if config is not None else None, settings)
    result = json.loads(forms["json"])
    result["table"] = forms["table"]
    return result


# ---- sweeps

class SweepResult:
    """A finished sweep (docs/sweep.md, "Output"): results.csv's rows, and its Pareto front when asked for.

    Made by ``sweep`` and ``sweep_merge``.

    Parameters
    ----------
    out_dir : str or os.PathLike or None
        The sweep's folder; None for a sweep run in memory.
    text : str, optional
        results.csv's text, for a sweep run in memory.
    manifest : dict, optional
        sweep.json, for a sweep run in memory.
    pareto_text : str, optional
        pareto.csv's text (``ergon sweep --pareto``), for a sweep run with ``pareto=True``.

    Attributes
    ----------
    out_dir : pathlib.Path or None
        The folder holding results.csv and sweep.json; None when the sweep ran in memory.
    results_csv : pathlib.Path or None
        ``out_dir / "results.csv"``; None in memory.
    text : str
        results.csv's text.
    manifest : dict
        sweep.json: the config, overrides, workloads, parameters (and links, and batch when fixed) and number
        of points.
    frame : pandas.DataFrame
        results.csv as a DataFrame (``to_pandas()``).
    pareto_text : str or None
        With ``pareto=True``: the text of the pareto.csv ``ergon sweep --pareto`` writes, byte for byte
        (results.csv's header and the total rows of each workload's points on the front, in point order);
        None otherwise.
    pareto : pandas.DataFrame or None
        ``pareto_text`` as a DataFrame; None without ``pareto=True``.

    Raises
    ------
    Nothing.

    Examples
    --------
    >>> config = ergon.load_config("eyeriss")
    >>> sweep = ergon.sweep(config, ["resnet8"], {"glb.size_kib": [64, 128]})
    >>> sweep.out_dir is None, sweep.manifest["points"], sweep.pareto is None
    (True, 2, True)
    """

    def __init__(self, out_dir, text=None, manifest=None, pareto_text=None):
        self.out_dir = None if out_dir is None else pathlib.Path(out_dir)
        self.results_csv = None if out_dir is None else self.out_dir / "results.csv"
        self.pareto_text = pareto_text
        self._text = text
        self._manifest = manifest
        self._frame = None
        self._pareto = None

    @property
    def text(self):
        """results.csv's text (str)."""
        return self._text if self.out_dir is None else self.results_csv.read_text()

    @property
    def manifest(self):
        """sweep.json as a dict."""
        if self.out_dir is None:
            return self._manifest
        return json.loads((self.out_dir / "sweep.json").read_text())

    @property
    def pareto(self):
        """The Pareto front, pareto.csv's rows as a DataFrame, read once (pandas.DataFrame); None unless the
        sweep was run with ``pareto=True``."""
        if self._pareto is None and self.pareto_text is not None:
            self._pareto = _pandas().read_csv(io.StringIO(self.pareto_text))
        return self._pareto

    def to_pandas(self):
        """results.csv as a DataFrame: one row per executed layer and a ``total`` row per point.

        Returns
        -------
        pandas.DataFrame
            Columns ``point``, ``workload``, one per swept key, ``layer``, ``op``, ``cycles`` ... as in
            results.csv (docs/sweep.md). A new frame each call.

        Raises
        ------
        ImportError
            pandas is not installed.

        Examples
        --------
        >>> sweep = ergon.sweep(ergon.load_config("eyeriss"), ["resnet8"], {"glb.size_kib": [64, 128]})
        >>> frame = sweep.to_pandas()
        >>> sorted(frame.loc[frame["layer"] == "total", "glb.size_kib"].tolist())
        [64, 128]
        """
        source = io.StringIO(self._text) if self.out_dir is None else self.results_csv
        return _pandas().read_csv(source)

    @property
    def frame(self):
        """results.csv as a DataFrame, read once (pandas.DataFrame)."""
        if self._frame is None:
            self._frame = self.to_pandas()
        return self._frame

    def __repr__(self):
        where = "in memory" if self.out_dir is None else f"in {self.out_dir}"
        return f"<ergon.SweepResult {where}>"


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


def _params(params):
    if not isinstance(params, collections.abc.Mapping):
        raise TypeError("sweep: params must be a dict of key path to values, e.g. {'glb.size_kib': [32, 64]}, "
                        f"not {_describe(params)}")
    if not params:
        raise InputError("sweep: params: the dict is empty; give at least one key path to sweep, as ergon sweep "
                         "--param does")
    for key in params:
        if not isinstance(key, str):
            raise TypeError(f"sweep: params: the keys must be str, not {_describe(key)}")
    return [(key, _spec(key, values)) for key, values in params.items()]


def _links(links):
    """`links` as ``--link`` arguments, ``KEY=EXPR`` each: from a dict of key to EXPR or a list of such texts."""
    if links is None:
        return []
    if isinstance(links, collections.abc.Mapping):
        texts = []
        for key, expression in links.items():
            if not isinstance(key, str):
                raise TypeError(f"sweep: links: the keys must be str, not {_describe(key)}")
            if not isinstance(expression, str):
                raise TypeError(f"sweep: links[{key!r}] must be an expression (str) such as 'glb.size_kib/2', "
                                f"not {_describe(expression)}")
            texts.append(f"{key}={expression}")
        return texts
    if not isinstance(links, (list, tuple)):
        raise TypeError("sweep: links must be a dict of key to expression, e.g. {'glb.filter_size_kib': "
                        f"'glb.size_kib/2'}}, or a list of 'KEY=EXPR' str, not {_describe(links)}")
    for position, text in enumerate(links):
        if not isinstance(text, str):
            raise TypeError(f"sweep: links[{position}] must be a 'KEY=EXPR' str such as "
                            f"'glb.filter_size_kib=glb.size_kib/2', not {_describe(text)}")
    return list(links)


def _grid(params, batch, links):
    """What defines the points besides the config and workloads, checked: the params' ``--param`` specs, the
    images per layer fixed at every point (0: each layer's own, as without ``--batch``) and the links."""
    specs = _params(params)
    if batch is None:
        batch = 0
    else:
        batch = _check_int("sweep", "batch", batch, 1, MAX_BATCH, "images per layer, as ergon sweep --batch")
        if "batch" in params:
            raise InputError(f"sweep: batch={batch} fixes the images per layer, which params['batch'] sweeps: "
                             "give one of them")
    return tuple(specs), batch, tuple(_links(links))


def _sweep_workloads(workloads):
    """The files of `workloads` (a list of paths, names or loaded workloads, at least one) and the import
    options of its ONNX models, which one sweep shares."""
    if isinstance(workloads, (str, os.PathLike, Workload)) or not isinstance(workloads, (list, tuple)):
        raise TypeError("sweep: workloads must be a list of workload paths or ergon.Workloads, not "
                        f"{_describe(workloads)}; a single one goes in a list: [workload]")
    if not workloads:
        raise InputError("sweep: workloads: the list is empty; give at least one workload")
    paths = [w.file if isinstance(w, Workload) else _shipped_file("sweep", "workloads", "workload", w)
             for w in workloads]
    models = {getattr(w, "_import_options", _NO_IMPORT_OPTIONS) for w in workloads
              if isinstance(w, Workload) and _is_onnx(w.file)}
    if len(models) > 1:
        raise InputError("sweep: workloads: the ONNX models were loaded with different input_shapes, input_values, "
                         "skip_unsupported or loop_trips, which one sweep applies to every model; sweep them apart")
    return paths, (models.pop() if models else _NO_IMPORT_OPTIONS)


def _executor(executor):
    """A concurrent.futures.Executor: the one given, or a dask.distributed.Client's."""
    if executor is None or isinstance(executor, concurrent.futures.Executor):
        return executor
    if callable(getattr(executor, "get_executor", None)):  # dask.distributed.Client
        return executor.get_executor()
    raise TypeError("sweep: executor must be a concurrent.futures.Executor (ProcessPoolExecutor, say) or a "
                    f"dask.distributed.Client, not {_describe(executor)}")


def _spec_tuple(config, paths, grid, fidelity, import_options):
    """What a worker needs to run any point: plain data (picklable, hashable), with absolute paths, since a
    worker may run in another folder. `grid`: the params' specs, the fixed batch and the links (_grid)."""
    return (os.path.abspath(data_dir()), os.path.abspath(config.path), tuple(config.overrides),
            tuple(os.path.abspath(p) for p in paths), grid, fidelity, import_options)


def _native_spec(config_path, overrides, paths, grid, fidelity, import_options):
    spec = _ergon.SweepSpec()
    spec.config_path, spec.overrides, spec.workload_paths = config_path, list(overrides), list(paths)
    specs, spec.batch, links = grid
    spec.params, spec.links, spec.fidelity = list(specs), list(links), fidelity
    shapes, values, spec.skip_unsupported, spec.loop_trips = import_options
    spec.input_shapes = {name: list(dims) for name, dims in shapes}
    spec.input_values = {name: list(numbers_given) for name, numbers_given in values}
    return spec


# A worker keeps the inputs of the sweep it last ran a point of, loaded once.
_worker_lock = threading.Lock()
_worker_points = {}


def _sweep_point(spec, index):
    """Runs point `index` of the sweep `spec` where an executor sends it: its rows of results.csv, or "!" and
    why it could not be simulated. Workers of several machines need the paths on a shared file system."""
    data, config_path, overrides, paths, grid, fidelity, import_options = spec
    if not os.path.isdir(os.path.join(data, "configs")):
        raise RuntimeError(f"this worker cannot read the shipped data {data} of the process that started the "
                           "sweep; run the workers where the same files are (a shared file system)")
    with _worker_lock:
        os.environ["ERGON_DATA_DIR"] = data  # energy table names resolve as in the process that started it
        points = _worker_points.get(spec)
        if points is None:
            _worker_points.clear()
            points = _worker_points[spec] = _ergon.SweepPoints(
                _native_spec(config_path, overrides, paths, grid, fidelity, import_options))
    return points.rows(index)


def _run_on(executor, spec):
    """The sweep's executor callback: every point of `todo` on `executor`, each handed to `finished` as it
    ends. Stops at the first point whose task fails (its exception, named), cancelling the others."""
    def run(todo, finished):
        futures = {executor.submit(_sweep_point, spec, index): i for i, index in enumerate(todo)}
        try:
            for future in concurrent.futures.as_completed(futures):
                i = futures[future]
                try:
                    rows = future.result()
                except Exception as error:
                    raise RuntimeError(f"sweep: point {todo[i]}: its task failed on the executor: "
                                       f"{type(error).__name__}: {error}") from error
                finished(i, rows)
        finally:
            for future in futures:
                future.cancel()
    return run


def _sweep_log(line):
    if line.startswith("warning: "):
        _log.warning("%s", line[len("warning: "):])
    else:
        _log.info("%s", line)


def _run_sweep(native_spec, out, jobs, resume, max_points, max_output_mb, run):
    with _in_python_words():
        _ergon.sweep(native_spec, out, jobs, resume, max_points, max_output_mb, run, _sweep_log)


def _pareto_text(folder):
    """pareto.csv's text for the sweep in `folder`, as ``ergon sweep --pareto`` computes it; the note when area
    is left out of the objectives goes to the log."""
    with _in_python_words():
        front = _ergon.sweep_pareto(os.path.join(folder, "results.csv"))
    if front["area_left_out"]:
        _log.info("pareto: %s", front["area_left_out"])
    return front["csv"]


def _result(folder, pareto):
    """The sweep in `folder`, with its Pareto front if `pareto`."""
    return SweepResult(folder, pareto_text=_pareto_text(folder) if pareto else None)


def _result_in_memory(folder, pareto):
    """The sweep in `folder`, a temporary folder about to be removed, held in memory."""
    with open(os.path.join(folder, "results.csv")) as results, open(os.path.join(folder, "sweep.json")) as manifest:
        return SweepResult(None, results.read(), json.load(manifest), _pareto_text(folder) if pareto else None)


def _sweep_in_memory(native_spec, jobs, max_points, max_output_mb, run, pareto):
    with tempfile.TemporaryDirectory(prefix="ergon-sweep-") as folder:
        out = os.path.join(folder, "sweep")
        try:
            _run_sweep(native_spec, out, jobs, False, max_points, max_output_mb, run)
        except Interrupted:
            raise Interrupted("sweep: interrupted; it ran in memory (out=None), so its finished points are gone: "
                              "give out a folder to keep them, and resume=True to complete it") from None
        return _result_in_memory(out, pareto)


def sweep(config, workloads, params, out=None, jobs=1, fidelity="tlm", resume=None, executor=None,
          max_points=100000, max_output_mb=1024.0, batch=None, links=None, pareto=False):
    """Simulates every point of a design-space grid, as ``ergon sweep`` does (docs/sweep.md).

    A point is the config with one value of each swept key, on one workload: its rows of results.csv (one
    per executed layer and a ``total``), byte for byte those of ``ergon sweep`` with the same config,
    overrides, workloads and parameters, however the points run.

    Parameters
    ----------
    config : Config
        From ``load_config``; its overrides apply to every point.
    workloads : list of (str, os.PathLike or Workload)
        Workload files, shipped names or loaded workloads; a single one goes in a list too. The ONNX models
        among them must share their import options.
    params : dict of str to list or str
        At least one config key path, each with a list of values (int, float, str or bool) or a range spec
        as ``--param`` takes it (``"8:512:*2"``, ``"2:128:2"``, ``"lpddr4,hbm2"``). The grid is their
        cartesian product, times the workloads. The key ``"batch"`` sweeps the images per layer (not a config
        key), each value a whole number from 1 to ``MAX_BATCH``, as ``--param batch=1,4,16``.
    out : str or os.PathLike, optional
        The folder for results.csv and sweep.json, which grow as points finish. None runs the sweep in a
        temporary folder, removed once read: the result is held in memory.
    jobs : int, default 1
        Worker processes forked from this one, 1 to ``MAX_JOBS`` (SystemC allows one kernel per process);
        with 1 the points run in this process. Leave at 1 with `executor`.
    fidelity : {"tlm", "cycle"}, default "tlm"
        As for ``simulate``.
    resume : bool, optional
        What to do with a sweep already in `out`. None (the default): continue it when it is this same
        sweep and none of its input files (config, workloads, energy tables) changed since it started, so
        re-running a notebook cell returns the same results and runs only the missing points; start afresh
        when `out` holds none; refuse anything else. True: continue it even if an input changed since.
        False: refuse a folder that holds one. A folder holding a different sweep is always refused: nothing
        in `out` is ever overwritten.
    executor : concurrent.futures.Executor or dask.distributed.Client, optional
        Runs the points instead of `jobs`: one task per point (``ProcessPoolExecutor``, or a Dask cluster's
        client for several machines, whose workers need the same paths and ``ergon`` installed). Workers
        are reused: each runs its points one SystemC kernel after another.
    max_points : int, default 100000
        A larger grid is refused before anything runs.
    max_output_mb : float, default 1024
        results.csv's estimated size bound (MB), checked before anything runs.
    batch : int, optional
        Images per layer at every point, 1 to ``MAX_BATCH``, as ``--batch`` (recorded in sweep.json); None:
        each layer's own. Not with ``params["batch"]``, which sweeps it instead.
    links : dict of str to str, or list of str, optional
        Keys computed at each point from one other key, as ``--link KEY=EXPR`` (docs/sweep.md, "Linked keys"):
        ``{"glb.filter_size_kib": "glb.size_kib/2"}`` or ``["glb.filter_size_kib=glb.size_kib/2"]``. EXPR
        reads one key (swept, ``batch``, or a config key not swept) with numbers, ``*``, ``/``, ``+`` and
        ``-``. Each linked key is a column of results.csv after the swept keys, and sweep.json records its
        values, so `resume` and ``sweep_merge`` refuse a sweep whose linked values differ.
    pareto : bool, default False
        Also find each workload's Pareto front on latency, energy and (when every point has it) area, as
        ``--pareto``: ``SweepResult.pareto`` holds the rows of the pareto.csv ``ergon sweep --pareto``
        writes. No file is written for it: the command line writes pareto.csv only with its gnuplot plots.

    Returns
    -------
    SweepResult
        results.csv's rows (``to_pandas()``, ``frame``), sweep.json and, with `pareto`, the front (``pareto``).

    Raises
    ------
    TypeError
        An argument of the wrong type (e.g. `config` not loaded, or `executor` not an Executor).
    ergon.InputError
        A bad value: an empty grid, an unknown key or a value out of range (naming ``params[...]``), a grid
        over `max_points`, `jobs` or `batch` out of range, `batch` both fixed and swept, a bad link (naming
        ``links[...]``: its EXPR, its key, or a linked value the config refuses), or `out` would replace an
        input.
    RuntimeError
        `out` holds another sweep (or this one, started before an input changed, with resume=None), some
        points could not be simulated (the others are kept; rerun with resume=True after fixing), or a task
        failed on the executor.
    ergon.Interrupted
        Ctrl-C: the workers stop and the finished points stay in `out` (resume=True completes the sweep).

    Examples
    --------
    >>> config = ergon.load_config("eyeriss")
    >>> sweep = ergon.sweep(config, ["resnet8"], {"glb.size_kib": [64, 128], "dram.preset": "lpddr4,hbm2"})
    >>> sweep.frame["point"].nunique()
    4
    >>> linked = ergon.sweep(config, ["resnet8"], {"glb.size_kib": [64, 128]}, batch=2,
    ...                      links={"glb.filter_size_kib": "glb.size_kib/4"}, pareto=True)
    >>> totals = linked.frame[linked.frame["layer"] == "total"]
    >>> totals["glb.filter_size_kib"].tolist(), linked.manifest["batch"]
    ([16, 32], 2)
    >>> set(linked.pareto["point"]) <= {0, 1}
    True
    """
    _loaded("sweep", "config", config, Config, "load_config")
    paths, import_options = _sweep_workloads(workloads)
    grid = _grid(params, batch, links)
    if out is not None:
        out = _check_path("sweep", "out", out)
    jobs = _check_int("sweep", "jobs", jobs, 1, MAX_JOBS, "worker processes, as ergon sweep --jobs")
    _check_choice("sweep", "fidelity", fidelity, _ergon.fidelity_names())
    if resume is not None:
        _check_flag("sweep", "resume", resume)
        if out is None and resume:
            raise InputError("sweep: resume=True continues the sweep in out; give out the sweep's folder")
    executor = _executor(executor)
    if executor is not None and jobs != 1:
        raise InputError(f"sweep: jobs={jobs} with an executor: the executor runs the points; leave jobs at 1")
    max_points = _check_int("sweep", "max_points", max_points, 1, 2 ** 63 - 1, "points")
    max_output_mb = _check_positive("sweep", "max_output_mb", max_output_mb, "MB")
    _check_flag("sweep", "pareto", pareto)
    native_spec = _native_spec(config.path, config.overrides, paths, grid, fidelity, import_options)
    run = None
    if executor is not None:
        run = _run_on(executor, _spec_tuple(config, paths, grid, fidelity, import_options))
    if out is None:
        return _sweep_in_memory(native_spec, jobs, max_points, max_output_mb, run, pareto)
    _run_sweep(native_spec, out, jobs, resume, max_points, max_output_mb, run)
    return _result(out, pareto)


def _shard_folders(shards):
    """The shards' folders: a list of at least one existing folder."""
    if isinstance(shards, (str, os.PathLike)) or not isinstance(shards, (list, tuple)):
        raise TypeError("sweep_merge: shards must be a list of the shards' folders (each one's ergon sweep --shard "
                        f"I/N --out), not {_describe(shards)}")
    if not shards:
        raise InputError("sweep_merge: shards: the list is empty; give the shards' folders")
    folders = [_check_path("sweep_merge", f"shards[{i}]", shard) for i, shard in enumerate(shards)]
    for i, folder in enumerate(folders):
        if not os.path.isdir(folder):
            raise InputError(f"sweep_merge: shards[{i}]: {folder!r} is not a folder; give each shard's out folder")
    return folders


def sweep_merge(shards, out=None, pareto=False):
    """Merges the shards of a sweep into the sweep a single run makes, as ``ergon sweep-merge`` does.

    The shards are the folders of ``ergon sweep --shard I/N --out DIR`` runs of one sweep (docs/sweep.md,
    "Several machines: shards"). The merged results.csv and sweep.json are byte for byte those of
    ``ergon sweep-merge`` and of the sweep run in one go.

    Parameters
    ----------
    shards : list of (str or os.PathLike)
        The shards' folders, each holding results.csv and sweep.json; together every point, once.
    out : str or os.PathLike, optional
        A new folder for the merged results.csv and sweep.json; one already holding either is refused. None
        merges in a temporary folder, removed once read: the result is held in memory.
    pareto : bool, default False
        Also find the merged sweep's Pareto front, as ``--pareto`` (``SweepResult.pareto``); no file is
        written for it.

    Returns
    -------
    SweepResult
        The merged results.csv's rows (``frame``), sweep.json and, with `pareto`, the front (``pareto``).

    Raises
    ------
    TypeError
        `shards` is not a list of paths, or `out` not a path, or `pareto` not a bool.
    ergon.InputError
        `shards` is empty or names something that is not a folder, a shard's sweep.json is missing or not a
        sweep's, or its results.csv is malformed (the message names the file and line).
    RuntimeError
        The shards hold different sweeps, a point is missing or in two shards, or `out` already holds a
        sweep; nothing is written then.

    Examples
    --------
    A sweep's folder is a shard of one: here the shards would come from ``ergon sweep --shard 0/2 --out s0``
    and ``--shard 1/2 --out s1`` (``ergon.sweep_merge(["s0", "s1"])``).

    >>> whole = ergon.sweep(ergon.load_config("eyeriss"), ["resnet8"], {"glb.size_kib": [64, 128]}, "whole")
    >>> merged = ergon.sweep_merge(["whole"], pareto=True)
    >>> merged.text == whole.text, merged.frame["point"].unique().tolist(), len(merged.pareto) >= 1
    (True, [0, 1], True)
    """
    folders = _shard_folders(shards)
    if out is not None:
        out = _check_path("sweep_merge", "out", out)
    _check_flag("sweep_merge", "pareto", pareto)
    if out is None:
        with tempfile.TemporaryDirectory(prefix="ergon-sweep-merge-") as folder:
            merged = os.path.join(folder, "merged")
            with _in_python_words():
                _ergon.sweep_merge(folders, merged, lambda line: None)  # the line would name the temporary folder
            return _result_in_memory(merged, pareto)
    with _in_python_words():
        _ergon.sweep_merge(folders, out, _sweep_log)
    return _result(out, pareto)
