"""The Python half of the hostile-input catalogue: every case of tests/data/catalogue/python.yaml (its header
gives the format) must raise its exception type with every expected fragment, in time, leaving its folder
empty.

Run by ctest with PYTHONPATH at the build's python/ folder and ERGON_SOURCE_DIR the source tree.
"""
import builtins
import os
import pathlib
import subprocess
import tempfile
import time
import unittest

import yaml

import ergon

SOURCE = pathlib.Path(os.environ["ERGON_SOURCE_DIR"])
CATALOGUE = SOURCE / "tests" / "data" / "catalogue" / "python.yaml"
CASE_KEYS = {"name", "code", "raises", "expect", "within_s"}


def load_cases():
    with open(CATALOGUE) as f:
        cases = yaml.safe_load(f)["python"]
    names = [case["name"] for case in cases]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise ValueError(f"{CATALOGUE}: case names used twice: {duplicates}")
    for case in cases:
        unknown = set(case) - CASE_KEYS
        if unknown or not {"name", "code", "raises", "expect"} <= set(case):
            raise ValueError(f"{CATALOGUE}: case {case.get('name')}: keys must be {sorted(CASE_KEYS)}")
    return cases


def exception_type(name):
    """'TypeError' (a builtin) or 'ergon.InputError'."""
    if name.startswith("ergon."):
        return getattr(ergon, name[len("ergon."):])
    kind = getattr(builtins, name)
    if not (isinstance(kind, type) and issubclass(kind, BaseException)):
        raise ValueError(f"{name} is not an exception type")
    return kind


class Interrupter:
    """interrupt_after(seconds): another process sends this one SIGINT after that many seconds, as Ctrl-C
    does; cancelled when the case ends, so it never reaches the next one."""

    def __init__(self):
        self.senders = []

    def __call__(self, seconds):
        self.senders.append(subprocess.Popen(["sh", "-c", f"sleep {float(seconds)}; kill -INT {os.getpid()}"]))

    def cancel(self):
        for sender in self.senders:
            if sender.poll() is None:
                sender.kill()
            sender.wait()


class CatalogueTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.config = ergon.load_config(SOURCE / "configs" / "eyeriss.yaml")
        cls.workload = ergon.load_workload(SOURCE / "workloads" / "resnet8.yaml")

    def run_case(self, case, folder):
        interrupter = Interrupter()
        names = {"ergon": ergon, "EYERISS": str(SOURCE / "configs" / "eyeriss.yaml"),
                 "RESNET8": str(SOURCE / "workloads" / "resnet8.yaml"),
                 "ALEXNET": str(SOURCE / "workloads" / "alexnet.yaml"), "config": self.config,
                 "workload": self.workload, "interrupt_after": interrupter}
        start = time.monotonic()
        raised = None
        try:
            exec(compile(case["code"], f"<{case['name']}>", "exec"), names)
        except BaseException as error:  # noqa: B036 (KeyboardInterrupt is a case's expected outcome)
            raised = error
        finally:
            elapsed_s = time.monotonic() - start
            interrupter.cancel()
        return raised, elapsed_s

    def test_every_case_raises_its_type_with_every_fragment(self):
        cases = load_cases()
        self.assertGreater(len(cases), 0)
        home = os.getcwd()
        for case in cases:
            with self.subTest(case=case["name"]), tempfile.TemporaryDirectory() as folder:
                os.chdir(folder)
                try:
                    raised, elapsed_s = self.run_case(case, folder)
                finally:
                    os.chdir(home)
                expected = exception_type(case["raises"])
                self.assertIsInstance(raised, expected, f"{case['name']} raised {raised!r}")
                for fragment in case["expect"]:
                    self.assertIn(fragment, str(raised), case["name"])
                if "within_s" in case:
                    self.assertLess(elapsed_s, case["within_s"], f"{case['name']} took {elapsed_s:.1f} s")
                self.assertEqual(os.listdir(folder), [], f"{case['name']} left files behind")


if __name__ == "__main__":
    unittest.main()
