"""The public API documents itself (docs/python.md, "API"): every callable of ergon.__all__ has a numpy-style
docstring with its Parameters (each one of its signature), Returns, Raises and Examples sections, and the
examples run; the type stubs (ergon/__init__.pyi) declare exactly __all__ with the runtime's parameters and
defaults, and mypy accepts code written against them and rejects a misuse.

Run by ctest with PYTHONPATH at the build's python/ folder and ERGON_SOURCE_DIR the source tree.
"""
import ast
import doctest
import inspect
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

import ergon

SOURCE = pathlib.Path(os.environ["ERGON_SOURCE_DIR"])
STUBS = SOURCE / "python" / "ergon" / "__init__.pyi"
SECTION = re.compile(r"^\s*(\w+)\n\s*-{3,}\s*$", re.MULTILINE)


def sections(docstring):
    """The numpy-style sections of a docstring: name -> its text."""
    docstring = inspect.cleandoc(docstring or "")
    found = list(SECTION.finditer(docstring))
    return {match.group(1): docstring[match.end():found[i + 1].start() if i + 1 < len(found) else None]
            for i, match in enumerate(found)}


def documented_parameters(text):
    """The names a Parameters section documents: lines `name : type` (or `**name : type`) at its margin."""
    return set(re.findall(r"^(?:\*\*)?(\w+) :", textwrap.dedent(text.strip("\n")), re.MULTILINE))


def public_callables():
    """(name, object) of every public callable: the functions and classes of __all__, and each class's own
    public methods and properties."""
    for name in ergon.__all__:
        value = getattr(ergon, name)
        if not callable(value):
            continue
        yield name, value
        if inspect.isclass(value):
            for attribute, member in vars(value).items():
                if not attribute.startswith("_"):
                    yield f"{name}.{attribute}", member


def signature_parameters(value):
    """The parameters a caller passes (self left out); None when the signature is not introspectable."""
    target = value.__init__ if inspect.isclass(value) else value
    try:
        parameters = [p for p in inspect.signature(target).parameters.values() if p.name != "self"]
    except (TypeError, ValueError):
        return None
    variadic = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    if inspect.isclass(value) and all(p.kind in variadic for p in parameters):
        return None  # a compiled class, made by a function of the package, not by its constructor
    return [p.name for p in parameters]


class DocstringTest(unittest.TestCase):
    def check_function(self, name, value):
        found = sections(value.__doc__)
        for section in ("Returns", "Raises", "Examples"):
            self.assertIn(section, found, f"{name}: no {section} section")
        parameters = signature_parameters(value) or []
        if parameters:
            self.assertIn("Parameters", found, f"{name}: no Parameters section")
            self.assertEqual(documented_parameters(found["Parameters"]), set(parameters),
                             f"{name}: documented parameters differ from the signature")

    def check_class(self, name, value):
        found = sections(value.__doc__)
        self.assertIn("Examples", found, f"{name}: no Examples section")
        if issubclass(value, BaseException):
            return
        self.assertIn("Attributes", found, f"{name}: no Attributes section")
        parameters = signature_parameters(value)
        if parameters:
            self.assertEqual(documented_parameters(found.get("Parameters", "")), set(parameters),
                             f"{name}: documented constructor parameters differ from its signature")

    def test_every_public_callable_is_documented(self):
        checked = []
        for name, value in public_callables():
            with self.subTest(name=name):
                if isinstance(value, property):
                    self.assertTrue((value.__doc__ or "").strip(), f"{name}: an undocumented property")
                elif inspect.isclass(value):
                    self.check_class(name, value)
                elif callable(value):
                    self.check_function(name, value)
                checked.append(name)
        self.assertIn("sweep", checked)
        self.assertIn("SweepResult.to_pandas", checked)

    def test_the_check_finds_an_undocumented_parameter(self):
        def documented(a, b):
            """Adds.

            Parameters
            ----------
            a : int
                One.

            Returns
            -------
            int

            Raises
            ------
            Nothing.

            Examples
            --------
            >>> documented(1, 2)
            3
            """
        with self.assertRaises(AssertionError):
            self.check_function("documented", documented)

    def test_the_examples_run(self):
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        parser = doctest.DocTestParser()
        folder = tempfile.mkdtemp()
        previous = os.getcwd()
        os.chdir(folder)  # the examples name shipped parts, from any folder
        try:
            for name, value in public_callables():
                test = parser.get_doctest(inspect.cleandoc(value.__doc__ or ""), {"ergon": ergon}, name, None, 0)
                runner.run(test)
        finally:
            os.chdir(previous)
            shutil.rmtree(folder)
        results = runner.summarize(verbose=False)
        self.assertEqual(results.failed, 0)
        self.assertGreater(results.attempted, 30)


def stub_module():
    return ast.parse(STUBS.read_text())


def stub_functions(tree):
    return {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}


def stub_parameters(function):
    """(name, default or None, has a default) of a stub's parameters, self left out."""
    arguments = function.args
    positional = arguments.args
    defaults = [None] * (len(positional) - len(arguments.defaults)) + list(arguments.defaults)
    found = [(a.arg, d) for a, d in zip(positional, defaults) if a.arg != "self"]
    found += [(a.arg, d) for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults)]
    if arguments.kwarg:
        found.append((arguments.kwarg.arg, None))
    return found


class StubTest(unittest.TestCase):
    def test_the_stubs_declare_exactly_all(self):
        tree = stub_module()
        names = set()
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.AnnAssign):
                names.add(node.target.id)
        self.assertEqual({n for n in names if not n.startswith("_")}, set(ergon.__all__))

    def test_the_stubs_have_the_runtime_parameters_and_defaults(self):
        functions = stub_functions(stub_module())
        for name in ergon.__all__:
            value = getattr(ergon, name)
            if not inspect.isfunction(value):
                continue
            with self.subTest(name=name):
                runtime = inspect.signature(value).parameters
                stub = stub_parameters(functions[name])
                self.assertEqual([n for n, _ in stub], list(runtime))
                for parameter, default in stub:
                    expected = runtime[parameter].default
                    if default is None:
                        self.assertIn(expected, (inspect.Parameter.empty,), f"{name}({parameter}): no default")
                    else:
                        self.assertEqual(ast.literal_eval(default), expected, f"{name}({parameter})")

    def test_the_stubs_declare_each_class_public_members(self):
        classes = {node.name: node for node in stub_module().body if isinstance(node, ast.ClassDef)}
        for name in ergon.__all__:
            value = getattr(ergon, name)
            if not inspect.isclass(value) or issubclass(value, BaseException):
                continue
            with self.subTest(name=name):
                declared = {node.name for node in classes[name].body if isinstance(node, ast.FunctionDef)}
                declared |= {node.target.id for node in classes[name].body if isinstance(node, ast.AnnAssign)}
                members = {m for m in vars(value) if not m.startswith("_")}
                self.assertLessEqual(members, declared)


SAMPLE = """
import pathlib
from typing import List, Optional

import ergon

config: ergon.Config = ergon.load_config("eyeriss", {"glb.size_kib": 64})
workload = ergon.load_workload("alexnet", input_shapes=None)
result = ergon.simulate(config, workload, batch=1)
latency: float = result.total["latency_ns"]
sweep = ergon.sweep(config, [workload, "resnet8"], {"glb.size_kib": [32, 64]}, None, resume=None)
path = sweep.results_csv
linked = ergon.sweep(config, ["resnet8"], {"batch": [1, 2]}, links={"glb.filter_size_kib": "glb.size_kib/2"},
                     pareto=True)
front_text: Optional[str] = linked.pareto_text
merged = ergon.sweep_merge(["shard0", pathlib.Path("shard1")], "merged", pareto=True)
names: List[str] = list(ergon.configs())
"""


class TypeCheckTest(unittest.TestCase):
    """Debian's mypy (scripts/setup.sh installs it) on code written against the stubs."""

    def mypy(self, code):
        with tempfile.TemporaryDirectory() as folder:
            sample = pathlib.Path(folder) / "sample.py"
            sample.write_text(code)
            environment = dict(os.environ, MYPYPATH=str(SOURCE / "python"))
            return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                                   "--cache-dir", os.path.join(folder, "cache"), str(sample)],
                                  capture_output=True, text=True, env=environment, cwd=folder)

    def test_code_using_the_api_type_checks(self):
        checked = self.mypy(SAMPLE)
        self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)

    def test_a_misuse_is_found(self):
        checked = self.mypy(SAMPLE + 'ergon.simulate(config, "workloads/alexnet.yaml")\n')
        self.assertNotEqual(checked.returncode, 0)
        self.assertIn('Argument 2 to "simulate" has incompatible type "str"; expected "Workload"', checked.stdout)


if __name__ == "__main__":
    unittest.main()
