"""The Python package against the command line: the same inputs give the same figures and, for sweeps, the
same files byte for byte; bad inputs raise exceptions carrying the located message (docs/python.md).

Run by ctest with PYTHONPATH at the build's python/ folder, ERGON_BINARY the ergon executable and
ERGON_SOURCE_DIR the source tree.
"""
import concurrent.futures
import contextlib
import csv
import io
import filecmp
import json
import os
import pathlib
import re
import shutil
import subprocess
import tempfile
import time
import unittest
import warnings

import ergon

SOURCE = pathlib.Path(os.environ["ERGON_SOURCE_DIR"])
ERGON = os.environ["ERGON_BINARY"]
EYERISS = SOURCE / "configs" / "eyeriss.yaml"
RESNET8 = SOURCE / "workloads" / "resnet8.yaml"


def cli(*args):
    return subprocess.run([ERGON, *map(str, args)], check=True, capture_output=True, text=True).stdout


@contextlib.contextmanager
def output_captured():
    """What this process writes to its standard output and error (file descriptors 1 and 2, where C++ writes
    too) meanwhile: yields a list that holds the text afterwards."""
    captured = []
    with tempfile.TemporaryFile() as sink:
        saved = [os.dup(1), os.dup(2)]
        os.dup2(sink.fileno(), 1)
        os.dup2(sink.fileno(), 2)
        try:
            yield captured
        finally:
            for descriptor, previous in zip((1, 2), saved):
                os.dup2(previous, descriptor)
                os.close(previous)
            sink.seek(0)
            captured.append(sink.read().decode())


@contextlib.contextmanager
def working_directory(folder):
    previous = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(previous)


def cli_sweep(out, *arguments):
    cli("sweep", "--config", EYERISS, "--workload", RESNET8, *arguments, "--jobs", "1", "--out", out, "--quiet")
    return (pathlib.Path(out) / "results.csv").read_text()


class SimulateTest(unittest.TestCase):
    def test_run_matches_the_command_line(self):
        config = ergon.load_config(EYERISS, {"glb.size_kib": 64})
        result = ergon.simulate(config, ergon.load_workload(RESNET8))
        with tempfile.TemporaryDirectory() as out:
            cli("run", "--config", EYERISS, "--set", "glb.size_kib=64", "--workload", RESNET8, "--out", out,
                "--activity", "none", "--quiet")
            with open(os.path.join(out, "layers.csv")) as f:
                self.assertEqual(result.layers_csv, f.read())
            with open(os.path.join(out, "report.json")) as f:
                report = json.load(f)
        self.assertEqual(result.total, report["total"])
        self.assertEqual(result.layers, report["layers"])
        self.assertGreater(result.total["cycles"], 0)

    def test_to_pandas_has_a_row_per_layer_and_the_csv_columns(self):
        result = ergon.simulate(ergon.load_config(EYERISS), ergon.load_workload(RESNET8), batch=2)
        frame = result.to_pandas()
        self.assertEqual(len(frame), len(result.layers))
        self.assertEqual(list(frame.columns), result.layers_csv.splitlines()[0].split(","))
        self.assertEqual(int(frame["cycles"].sum()), result.total["cycles"])
        self.assertTrue((frame["batch"] == 2).all())

    def test_bad_inputs_raise_located_messages(self):
        with self.assertRaises(ergon.InputError) as raised:
            ergon.load_config(EYERISS, {"glb.size_kb": 64})
        self.assertIn("did you mean 'size_kib'", str(raised.exception))
        self.assertIsInstance(raised.exception, ValueError)
        with tempfile.TemporaryDirectory() as folder:
            bad = pathlib.Path(folder) / "bad.yaml"
            bad.write_text("name: bad\nlayers:\n  - {name: c, op: conv, filters: -3}\n")
            with self.assertRaises(Exception) as raised:
                ergon.load_workload(bad)
            self.assertIn(str(bad), str(raised.exception))
        with self.assertRaises(ValueError):
            ergon.simulate(ergon.load_config(EYERISS), ergon.load_workload(RESNET8), fidelity="exact")


class InterruptTest(unittest.TestCase):
    def test_ctrl_c_stops_simulate_promptly_and_the_next_simulate_runs(self):
        config = ergon.load_config(EYERISS)
        before = ergon.simulate(config, ergon.load_workload(RESNET8))
        # AlexNet at cycle fidelity, batch 4, simulates for about 40 s (as simulate_ctrl_c_stops_promptly in
        # tests/data/catalogue/python.yaml): SIGINT comes after 0.5 s, as Ctrl-C, from another process.
        alexnet = ergon.load_workload(SOURCE / "workloads" / "alexnet.yaml")
        sender = subprocess.Popen(["sh", "-c", f"sleep 0.5; kill -INT {os.getpid()}"])
        start = time.monotonic()
        try:
            with self.assertRaises(KeyboardInterrupt):
                ergon.simulate(config, alexnet, fidelity="cycle", batch=4)
        finally:
            sender.kill()
            sender.wait()
        self.assertLess(time.monotonic() - start, 5.0)
        after = ergon.simulate(config, ergon.load_workload(RESNET8))
        self.assertEqual(after.layers_csv, before.layers_csv)
        self.assertEqual(after.report, before.report)


    def test_simulations_from_threads_take_turns(self):
        config = ergon.load_config(EYERISS)
        workload = ergon.load_workload(RESNET8)
        alone = ergon.simulate(config, workload)
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            side_by_side = list(pool.map(lambda _: ergon.simulate(config, workload), range(4)))
        for result in side_by_side:
            self.assertEqual(result.layers_csv, alone.layers_csv)


class EstimateTest(unittest.TestCase):
    def test_every_estimator_is_listed(self):
        # The registry's estimators, in the order `ergon estimate --help` lists them.
        help_text = cli("estimate", "--help")
        listed = help_text[help_text.index("Subcommands:"):].splitlines()[1:]
        names = [line.split()[0] for line in listed if line.startswith("  ") and line.strip()]
        self.assertEqual(ergon.estimators(), names)
        self.assertGreaterEqual(len(names), 4)

    def test_estimator_choices_match_case_insensitively_as_on_the_command_line(self):
        alexnet = SOURCE / "workloads" / "cnnergy" / "alexnet.yaml"
        workload = ergon.load_workload(alexnet)
        lahmer = ergon.estimate("lahmer", workload, board="tx2", kclc="EXACT", kclc_padding="Include")
        self.assertEqual({k: v for k, v in lahmer.items() if k != "table"},
                         json.loads(cli("estimate", "lahmer", "--workload", alexnet, "--board", "tx2",
                                        "--kclc", "EXACT", "--kclc-padding", "Include", "--format", "json")))
        self.assertEqual(lahmer, ergon.estimate("lahmer", workload, board="tx2", kclc="exact",
                                                kclc_padding="include"))
        with self.assertRaisesRegex(ValueError, "kclc must be one of exact or approximate, not 'rough'"):
            ergon.estimate("lahmer", workload, board="tx2", kclc="rough")

    def test_estimates_match_the_command_line(self):
        alexnet = SOURCE / "workloads" / "cnnergy" / "alexnet.yaml"
        workload = ergon.load_workload(alexnet)
        cnnergy = ergon.estimate("cnnergy", workload, ergon.load_config(EYERISS))
        self.assertEqual({k: v for k, v in cnnergy.items() if k != "table"},
                         json.loads(cli("estimate", "cnnergy", "--workload", alexnet, "--format", "json")))
        self.assertIn("total energy: 10.9111 mJ", cnnergy["table"])
        lahmer = ergon.estimate("lahmer", workload, board="xavier-nx", kclc="approximate")
        self.assertEqual({k: v for k, v in lahmer.items() if k != "table"},
                         json.loads(cli("estimate", "lahmer", "--workload", alexnet, "--board", "xavier-nx",
                                        "--kclc", "approximate", "--format", "json")))

    def test_estimator_options_are_checked(self):
        workload = ergon.load_workload(RESNET8)
        with self.assertRaisesRegex(ValueError, "no option 'boards'; it has: board"):
            ergon.estimate("lahmer", workload, boards="tx2")
        with self.assertRaisesRegex(ValueError, "needs the option 'board'"):
            ergon.estimate("lahmer", workload)
        with self.assertRaisesRegex(ValueError, "models a chip: give a config"):
            ergon.estimate("roofline", workload)
        with self.assertRaisesRegex(ValueError, "no estimator 'timeloop'"):
            ergon.estimate("timeloop", workload)


class SweepTest(unittest.TestCase):
    def test_sweep_writes_the_files_the_command_line_writes(self):
        config = ergon.load_config(EYERISS, {"clock.frequency_mhz": 100})
        with tempfile.TemporaryDirectory() as folder:
            by_python = pathlib.Path(folder) / "python"
            by_cli = pathlib.Path(folder) / "cli"
            sweep = ergon.sweep(config, [RESNET8], {"glb.size_kib": [32, 64], "dram.preset": "lpddr4,hbm2"},
                                by_python, jobs=2)
            cli("sweep", "--config", EYERISS, "--set", "clock.frequency_mhz=100", "--workload", RESNET8,
                "--param", "glb.size_kib=32,64", "--param", "dram.preset=lpddr4,hbm2", "--jobs", "1",
                "--out", by_cli, "--quiet")
            for name in ("results.csv", "sweep.json"):
                self.assertTrue(filecmp.cmp(by_python / name, by_cli / name, shallow=False), name)
            frame = sweep.to_pandas()
            self.assertEqual(sorted(frame["point"].unique().tolist()), [0, 1, 2, 3])


class SweepOutTest(unittest.TestCase):
    """out=None runs in memory; re-running with the same out continues that sweep; nothing a user wrote is
    replaced; the library prints nothing and its messages speak Python."""

    def setUp(self):
        self.folder = pathlib.Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.folder)
        self.config = ergon.load_config(EYERISS)
        self.params = {"glb.size_kib": [32, 64]}

    def test_in_memory_sweep_matches_the_command_line_and_leaves_no_folder(self):
        before = set(pathlib.Path(tempfile.gettempdir()).glob("ergon-sweep-*"))
        with output_captured() as printed:
            sweep = ergon.sweep(self.config, [RESNET8], self.params)
        self.assertEqual(printed, [""])
        self.assertIsNone(sweep.out_dir)
        self.assertEqual(sweep.text, cli_sweep(self.folder / "cli", "--param", "glb.size_kib=32,64"))
        self.assertEqual(sweep.manifest["points"], 2)
        self.assertEqual(list(sweep.frame.columns), next(csv.reader(io.StringIO(sweep.text))))
        self.assertEqual(set(pathlib.Path(tempfile.gettempdir()).glob("ergon-sweep-*")), before)

    def test_rerunning_the_same_sweep_continues_it_and_runs_nothing_again(self):
        out = self.folder / "glb"
        first = ergon.sweep(self.config, [RESNET8], self.params, out)
        with self.assertLogs("ergon", "INFO") as logged:
            again = ergon.sweep(self.config, [RESNET8], self.params, out)
        self.assertIn("2 already finished, 0 to run", "\n".join(logged.output))
        self.assertEqual(again.text, first.text)

    def test_a_different_sweep_in_out_is_refused_in_python_words(self):
        out = self.folder / "glb"
        ergon.sweep(self.config, [RESNET8], self.params, out)
        written = (out / "results.csv").read_text()
        with self.assertRaises(RuntimeError) as raised:
            ergon.sweep(self.config, [RESNET8], {"glb.size_kib": [32, 128]}, out)
        self.assertIn("holds a different sweep", str(raised.exception))
        self.assertIn("use another out", str(raised.exception))
        self.assertNotIn("--", str(raised.exception))
        self.assertEqual((out / "results.csv").read_text(), written)

    def test_an_input_changed_since_the_sweep_started_needs_resume_true(self):
        config_file = self.folder / "eyeriss.yaml"
        shutil.copy(EYERISS, config_file)
        config = ergon.load_config(config_file)
        out = self.folder / "glb"
        first = ergon.sweep(config, [RESNET8], self.params, out)
        later = time.time() + 60
        os.utime(config_file, (later, later))
        with self.assertRaisesRegex(RuntimeError, "changed: pass resume=True to keep its finished points anyway, "
                                                  "or choose another out"):
            ergon.sweep(config, [RESNET8], self.params, out)
        self.assertEqual(ergon.sweep(config, [RESNET8], self.params, out, resume=True).text, first.text)

    def test_resume_false_refuses_an_existing_sweep(self):
        out = self.folder / "glb"
        ergon.sweep(self.config, [RESNET8], self.params, out)
        with self.assertRaisesRegex(RuntimeError, "exists: pass resume=True to continue that sweep, or choose "
                                                  "another out"):
            ergon.sweep(self.config, [RESNET8], self.params, out, resume=False)

    def test_a_bad_swept_value_is_named_as_a_param(self):
        with self.assertRaises(ergon.InputError) as raised:
            ergon.sweep(self.config, [RESNET8], {"glb.size_kib": [32, -4]})
        self.assertIn("params['glb.size_kib'] = -4", str(raised.exception))
        self.assertNotIn("--", str(raised.exception))

    def test_a_bad_override_is_named_as_an_override(self):
        with self.assertRaises(ergon.InputError) as raised:
            ergon.load_config(EYERISS, {"glb.size_kb": 64})
        self.assertTrue(str(raised.exception).startswith("overrides['glb.size_kb'] = 64: "), raised.exception)


class ShippedNamesTest(unittest.TestCase):
    def test_configs_and_workloads_list_the_shipped_files_by_name(self):
        configs = ergon.configs()
        self.assertEqual(sorted(configs), sorted(p.stem for p in (SOURCE / "configs").glob("*.yaml")))
        self.assertEqual(list(configs), sorted(configs))
        workloads = ergon.workloads()
        shipped = sorted(str(p.relative_to(SOURCE / "workloads").with_suffix(""))
                         for p in (SOURCE / "workloads").rglob("*") if p.suffix in (".yaml", ".onnx"))
        self.assertEqual(sorted(workloads), shipped)
        self.assertIn("cnnergy/alexnet", workloads)
        self.assertTrue(os.path.samefile(workloads["resnet8"], RESNET8))

    def test_names_and_source_tree_paths_load_from_any_folder(self):
        with tempfile.TemporaryDirectory() as folder, working_directory(folder):
            config = ergon.load_config("eyeriss")
            self.assertTrue(os.path.samefile(config.path, EYERISS))
            edge = ergon.load_config("configs/edge_tpu.yaml")
            self.assertTrue(os.path.samefile(edge.path, SOURCE / "configs" / "edge_tpu.yaml"))
            self.assertEqual(ergon.load_workload("alexnet").name, ergon.load_workload(SOURCE / "workloads" /
                                                                                      "alexnet.yaml").name)
            self.assertTrue(os.path.samefile(ergon.load_workload("cnnergy/alexnet").file,
                                             SOURCE / "workloads" / "cnnergy" / "alexnet.yaml"))

    def test_a_file_in_the_current_folder_comes_before_a_shipped_name(self):
        with tempfile.TemporaryDirectory() as folder, working_directory(folder):
            text = EYERISS.read_text().replace("name: eyeriss", "name: mine", 1)
            self.assertIn("name: mine", text)
            pathlib.Path("eyeriss.yaml").write_text(text)
            self.assertEqual(ergon.load_config("eyeriss.yaml").name, "mine")

    def test_an_unknown_name_suggests_the_closest(self):
        with self.assertRaises(ergon.InputError) as raised:
            ergon.load_config("eyeris")
        self.assertEqual(str(raised.exception), "load_config: path: 'eyeris' is neither a file nor a shipped config "
                                                "name; did you mean eyeriss?")
        with self.assertRaisesRegex(ergon.InputError, "'alexnt' is neither a file nor a shipped workload name; "
                                                      "did you mean alexnet"):
            ergon.load_workload("alexnt")

    def test_sweep_takes_workload_names(self):
        config = ergon.load_config("eyeriss")
        by_name = ergon.sweep(config, ["resnet8"], {"glb.size_kib": [64]})
        by_path = ergon.sweep(config, [RESNET8], {"glb.size_kib": [64]})
        self.assertEqual(by_name.text, by_path.text)


class VersionTest(unittest.TestCase):
    def test_the_version_is_the_cmake_projects(self):
        text = (SOURCE / "CMakeLists.txt").read_text()
        self.assertEqual(ergon.__version__, re.search(r"project\(ergon VERSION ([0-9.]+)", text).group(1))


ONNX_CORPUS = SOURCE / "tests" / "fuzz" / "corpus" / "onnx_model"


class OnnxImportTest(unittest.TestCase):
    """load_workload's import options are the command line's (--input-shape, --skip-unsupported)."""

    def shown(self, model, *options):
        return json.loads(cli("workload", "show", model, *options, "--format", "json"))

    def test_input_shapes_pin_a_dynamic_model_as_the_command_line_does(self):
        model = ONNX_CORPUS / "ergon_dynamic.onnx"
        with self.assertRaises(ergon.InputError) as raised:
            ergon.load_workload(model)
        self.assertIn("pin it with input_shapes={'x': [1, ?, ?, ?]}", str(raised.exception))
        self.assertNotIn("--", str(raised.exception))
        workload = ergon.load_workload(model, input_shapes={"x": [4, 4, 4, 4]})
        shown = self.shown(model, "--input-shape", "x=4x4x4x4")
        self.assertEqual(workload.layer_names, [layer["name"] for layer in shown["layers"]])

    def test_skip_unsupported_notes_go_to_the_logger_and_nothing_is_printed(self):
        model = ONNX_CORPUS / "ergon_unsupported.onnx"
        with self.assertRaisesRegex(ergon.InputError, "Run with skip_unsupported=True to treat them"):
            ergon.load_workload(model)
        with output_captured() as printed, self.assertLogs("ergon", "INFO") as logged:
            workload = ergon.load_workload(model, skip_unsupported=True)
        self.assertEqual(printed, [""])
        self.assertIn("treated as free data movement (skip_unsupported=True)", "\n".join(logged.output))
        self.assertIn("norm", workload.layer_names)

    def test_import_options_are_refused_for_a_yaml_workload(self):
        with self.assertRaisesRegex(ergon.InputError, "apply to ONNX models"):
            ergon.load_workload(RESNET8, input_shapes={"x": [1, 3, 8, 8]})
        with self.assertRaisesRegex(ergon.InputError, r"input_shapes\['x'\]\[0\]: 0 is not in range 1"):
            ergon.load_workload(ONNX_CORPUS / "ergon_dynamic.onnx", input_shapes={"x": [0, 3]})


class DvfsTest(unittest.TestCase):
    def test_dvfs_outcome_matches_the_command_line(self):
        config_path = SOURCE / "configs" / "hpc_tpu.yaml"
        outcome = ergon.dvfs(ergon.load_config(config_path), ergon.load_workload(RESNET8), "ideal")
        with tempfile.TemporaryDirectory() as out:
            cli("dvfs", "--config", config_path, "--workload", RESNET8, "--scheme", "ideal", "--out", out,
                "--activity", "none", "--quiet")
            with open(os.path.join(out, "report.json")) as f:
                self.assertEqual(outcome.report, json.load(f))
        self.assertEqual(outcome.total["rti_latency_ns"], outcome.race_to_idle.total["latency_ns"])
        frame = outcome.to_pandas()
        self.assertEqual(len(frame), len(outcome.scheduled.layers))
        self.assertEqual(list(frame.columns), outcome.scheduled.layers_csv.splitlines()[0].split(","))

    def test_fidelity_and_batch_are_the_command_lines(self):
        config_path = SOURCE / "configs" / "edge_tpu.yaml"
        outcome = ergon.dvfs(ergon.load_config(config_path), ergon.load_workload(RESNET8), "ideal",
                             fidelity="cycle", batch=2)
        printed = json.loads(cli("dvfs", "--config", config_path, "--workload", RESNET8, "--scheme", "ideal",
                                        "--fidelity", "cycle", "--batch", "2", "--format", "json", "--quiet"))
        self.assertEqual(outcome.report, printed)
        self.assertEqual(outcome.report["fidelity"], "cycle")
        self.assertTrue(all(layer["batch"] == 2 for layer in outcome.race_to_idle.layers))
        with self.assertRaisesRegex(ergon.InputError, "fidelity"):
            ergon.dvfs(ergon.load_config(config_path), ergon.load_workload(RESNET8), fidelity="rtl")


if __name__ == "__main__":
    unittest.main()
