"""sweep(..., executor=...) on other engines: a ProcessPoolExecutor and a Dask cluster of worker processes give
results.csv exactly as `ergon sweep` writes it (same text, same DataFrame); workers are reused, one SystemC
kernel after another; Ctrl-C keeps the finished points (docs/python.md, "Sweeps on an executor").

Run by ctest with PYTHONPATH at the build's python/ folder, ERGON_BINARY the ergon executable and
ERGON_SOURCE_DIR the source tree.
"""
import concurrent.futures
import os
import pathlib
import shutil
import subprocess
import tempfile
import unittest

import pandas
import pandas.testing

import ergon

SOURCE = pathlib.Path(os.environ["ERGON_SOURCE_DIR"])
ERGON = os.environ["ERGON_BINARY"]
EYERISS = SOURCE / "configs" / "eyeriss.yaml"
RESNET8 = SOURCE / "workloads" / "resnet8.yaml"
PARAMS = {"glb.size_kib": [32, 64]}


def cli_results(out):
    subprocess.run([ERGON, "sweep", "--config", str(EYERISS), "--workload", str(RESNET8), "--param",
                    "glb.size_kib=32,64", "--jobs", "1", "--out", str(out), "--quiet"], check=True)
    return (pathlib.Path(out) / "results.csv").read_text()


class ExecutorTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = pathlib.Path(tempfile.mkdtemp())
        cls.expected_text = cli_results(cls.folder / "cli")
        cls.expected_frame = pandas.read_csv(cls.folder / "cli" / "results.csv")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.folder)

    def assertMatchesTheCommandLine(self, sweep):
        self.assertEqual(sweep.text, self.expected_text)
        pandas.testing.assert_frame_equal(sweep.to_pandas(), self.expected_frame, check_exact=True)

    def test_process_pool_executor(self):
        config = ergon.load_config(EYERISS)
        with concurrent.futures.ProcessPoolExecutor(2) as executor:
            self.assertMatchesTheCommandLine(ergon.sweep(config, [RESNET8], PARAMS, executor=executor))
            # The same workers again: each runs its next points after the ones before.
            out = self.folder / "pool"
            self.assertMatchesTheCommandLine(ergon.sweep(config, [RESNET8], PARAMS, out, executor=executor))
            self.assertEqual((out / "sweep.json").read_text(), (self.folder / "cli" / "sweep.json").read_text())

    def test_dask_local_cluster_of_processes(self):
        import dask.distributed  # Debian: python3-distributed

        config = ergon.load_config(EYERISS)
        # The workers' scratch space in a folder of the test's own, removed with it (else dask-worker-space).
        with tempfile.TemporaryDirectory() as scratch, \
                dask.distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                              dashboard_address=None, local_directory=scratch) as cluster, \
                dask.distributed.Client(cluster) as client:
            sweep = ergon.sweep(config, [RESNET8], PARAMS, executor=client)
            self.assertMatchesTheCommandLine(sweep)
            self.assertEqual(sweep.frame["point"].unique().tolist(), [0, 1])
            # Every point again on the same workers, in the other order of the grid's keys' values.
            reversed_params = {"glb.size_kib": [64, 32]}
            again = ergon.sweep(config, [RESNET8], reversed_params, executor=client)
            totals = again.frame[again.frame["layer"] == "total"].set_index("glb.size_kib")["cycles"]
            expected = self.expected_frame[self.expected_frame["layer"] == "total"].set_index("glb.size_kib")
            self.assertEqual(totals.to_dict(), expected["cycles"].to_dict())

    def test_a_failing_task_names_its_point_and_keeps_the_finished_ones(self):
        out = self.folder / "failing"

        class FailsOnPointOne(concurrent.futures.ThreadPoolExecutor):
            def submit(self, function, spec, index):
                if index == 1:
                    return super().submit(lambda: 1 / 0)
                return super().submit(function, spec, index)

        with FailsOnPointOne(1) as executor:
            with self.assertRaisesRegex(RuntimeError, "point 1: its task failed on the executor: ZeroDivisionError"):
                ergon.sweep(ergon.load_config(EYERISS), [RESNET8], PARAMS, out, executor=executor)
        resumed = ergon.sweep(ergon.load_config(EYERISS), [RESNET8], PARAMS, out, resume=True)
        self.assertEqual(resumed.text, self.expected_text)

    def test_ctrl_c_while_waiting_keeps_the_finished_points(self):
        out = self.folder / "interrupted"

        class InterruptedAfterPointZero(concurrent.futures.ThreadPoolExecutor):
            def submit(self, function, spec, index):
                if index == 1:
                    def ctrl_c():
                        raise KeyboardInterrupt
                    return super().submit(ctrl_c)
                return super().submit(function, spec, index)

        with InterruptedAfterPointZero(1) as executor:
            with self.assertRaises(ergon.Interrupted) as raised:
                ergon.sweep(ergon.load_config(EYERISS), [RESNET8], PARAMS, out, executor=executor)
        self.assertIn("rerun with resume=True", str(raised.exception))
        self.assertIn("1 points finished", str(raised.exception))
        resumed = ergon.sweep(ergon.load_config(EYERISS), [RESNET8], PARAMS, out, resume=True)
        self.assertEqual(resumed.text, self.expected_text)

    def test_executor_arguments_are_checked(self):
        config = ergon.load_config(EYERISS)
        with self.assertRaisesRegex(TypeError, "executor must be a concurrent.futures.Executor"):
            ergon.sweep(config, [RESNET8], PARAMS, executor="dask")
        with concurrent.futures.ThreadPoolExecutor(1) as executor:
            with self.assertRaisesRegex(ergon.InputError, "jobs=2 with an executor"):
                ergon.sweep(config, [RESNET8], PARAMS, jobs=2, executor=executor)


if __name__ == "__main__":
    unittest.main()
