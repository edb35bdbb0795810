"""The Python package against the command line: the same inputs give the same figures and, for sweeps, the
same files byte for byte; bad inputs raise exceptions carrying the located message (docs/python.md).

Run by ctest with PYTHONPATH at the build's python/ folder, ERGON_BINARY the ergon executable and
ERGON_SOURCE_DIR the source tree.
"""
import concurrent.futures
import filecmp
import json
import os
import pathlib
import subprocess
import tempfile
import time
import unittest

import ergon

SOURCE = pathlib.Path(os.environ["ERGON_SOURCE_DIR"])
ERGON = os.environ["ERGON_BINARY"]
EYERISS = SOURCE / "configs" / "eyeriss.yaml"
RESNET8 = SOURCE / "workloads" / "resnet8.yaml"


def cli(*args):
    return subprocess.run([ERGON, *map(str, args)], check=True, capture_output=True, text=True).stdout


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


if __name__ == "__main__":
    unittest.main()
