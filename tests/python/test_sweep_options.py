"""ergon.sweep's batch, links and pareto and ergon.sweep_merge against the command line (docs/python.md,
"Sweeps"): results.csv, sweep.json and pareto.csv byte for byte those of `ergon sweep` and `ergon sweep-merge`
with the same options; a bad link or shard is refused in Python's words before anything is written.

Run by ctest with PYTHONPATH at the build's python/ folder, ERGON_BINARY the ergon executable and
ERGON_SOURCE_DIR the source tree.
"""
import concurrent.futures
import json
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

SIZES = ["--param", "glb.size_kib=32,64"]
LINK = ["--link", "glb.filter_size_kib=glb.size_kib/2"]
LINKED = SIZES + LINK + ["--batch", "2"]  # the sweep of these tests: 2 points, a link, a fixed batch


def cli(*arguments):
    subprocess.run([ERGON, *arguments], check=True, stdout=subprocess.DEVNULL)


def cli_sweep(out, *arguments):
    cli("sweep", "--config", str(EYERISS), "--workload", str(RESNET8), "--jobs", "1", *arguments, "--out", str(out),
        "--quiet")


def read(path):
    return pathlib.Path(path).read_text()


def totals(frame):
    return frame[frame["layer"] == "total"].reset_index(drop=True)


def front_points(frame):
    """The points no other point of their workload dominates on time_ns, total_pj and area_mm2 (docs/sweep.md,
    "Pareto front"), worked out here from the total rows."""
    rows = totals(frame)
    objectives = ["time_ns", "total_pj", "area_mm2"]

    def dominates(a, b):
        return a["workload"] == b["workload"] and all(a[o] <= b[o] for o in objectives) and \
            any(a[o] < b[o] for o in objectives)

    return [b["point"] for _, b in rows.iterrows() if not any(dominates(a, b) for _, a in rows.iterrows())]


class SweepOptionsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = pathlib.Path(tempfile.mkdtemp())
        cls.config = ergon.load_config(EYERISS)
        cli_sweep(cls.folder / "cli-linked", *LINKED, "--pareto")
        cli_sweep(cls.folder / "cli-batch", "--param", "batch=1,2", "--pareto")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.folder)

    def assertSameFiles(self, produced, expected, names):
        for name in names:
            self.assertEqual(read(pathlib.Path(produced) / name), read(pathlib.Path(expected) / name), name)

    def assertSameFront(self, sweep, cli_folder):
        expected = read(cli_folder / "pareto.csv")
        self.assertEqual(sweep.pareto_text, expected)
        pandas.testing.assert_frame_equal(sweep.pareto, pandas.read_csv(cli_folder / "pareto.csv"),
                                          check_exact=True)
        self.assertEqual(sweep.pareto["point"].tolist(), front_points(sweep.frame))

    def test_batch_links_and_pareto_match_the_command_line(self):
        cli_folder = self.folder / "cli-linked"
        out = self.folder / "py-linked"
        sweep = ergon.sweep(self.config, [RESNET8], {"glb.size_kib": [32, 64]}, out, batch=2,
                            links={"glb.filter_size_kib": "glb.size_kib/2"}, pareto=True)
        self.assertSameFiles(out, cli_folder, ["results.csv", "sweep.json"])
        self.assertSameFront(sweep, cli_folder)
        # The command line writes pareto.csv only with its plots; the Python sweep writes neither.
        self.assertEqual(sorted(os.listdir(out)), ["results.csv", "sweep.json"])
        # The figures against their sources: the link's column is half the swept size, sweep.json keeps both.
        rows = totals(sweep.frame)
        self.assertEqual(rows["glb.filter_size_kib"].tolist(), [16, 32])
        self.assertEqual((rows["glb.size_kib"] / 2).tolist(), rows["glb.filter_size_kib"].tolist())
        self.assertEqual(sweep.manifest["batch"], 2)
        self.assertEqual(sweep.manifest["links"],
                         [{"key": "glb.filter_size_kib", "expression": "glb.size_kib/2", "values": ["16", "32"]}])
        # In memory, the links as KEY=EXPR texts, the points on an executor (whose tasks carry batch and links):
        # the same text and front.
        with concurrent.futures.ThreadPoolExecutor(1) as executor:
            in_memory = ergon.sweep(self.config, [RESNET8], {"glb.size_kib": [32, 64]}, batch=2,
                                    links=["glb.filter_size_kib=glb.size_kib/2"], pareto=True, executor=executor)
        self.assertEqual(in_memory.text, read(cli_folder / "results.csv"))
        self.assertEqual(in_memory.manifest, json.loads(read(cli_folder / "sweep.json")))
        self.assertSameFront(in_memory, cli_folder)

    def test_swept_batch_matches_the_command_line_and_the_simulation(self):
        cli_folder = self.folder / "cli-batch"
        out = self.folder / "py-batch"
        sweep = ergon.sweep(self.config, [RESNET8], {"batch": [1, 2]}, out, pareto=True)
        self.assertSameFiles(out, cli_folder, ["results.csv", "sweep.json"])
        self.assertSameFront(sweep, cli_folder)
        rows = totals(sweep.frame)
        self.assertEqual(rows["batch"].tolist(), [1, 2])
        # The batch=2 point is the simulation of two images per layer.
        simulated = ergon.simulate(self.config, ergon.load_workload(RESNET8), batch=2)
        self.assertEqual(rows.loc[1, "cycles"], simulated.total["cycles"])
        self.assertNotEqual(rows.loc[0, "cycles"], rows.loc[1, "cycles"])
        # Two images take longer and more energy on the same chip: the front is the batch=1 point alone.
        self.assertEqual(sweep.pareto["batch"].tolist(), [1])

    def test_merging_command_line_shards_matches_sweep_merge(self):
        shards = [self.folder / "shard0", self.folder / "shard1"]
        for index, shard in enumerate(shards):
            cli_sweep(shard, *LINKED, "--shard", f"{index}/2")
        cli_merged = self.folder / "cli-merged"
        cli("sweep-merge", *map(str, shards), "--pareto", "--out", str(cli_merged))
        out = self.folder / "py-merged"
        with self.assertLogs("ergon", "INFO") as logged:
            merged = ergon.sweep_merge(shards, out, pareto=True)
        self.assertSameFiles(out, cli_merged, ["results.csv", "sweep.json"])
        self.assertSameFront(merged, cli_merged)
        self.assertIn(f"merged 2 shards: 2 of 2 points into {out}/results.csv", "\n".join(logged.output))
        # The shards merged are the sweep run in one go.
        self.assertSameFiles(out, self.folder / "cli-linked", ["results.csv", "sweep.json"])
        in_memory = ergon.sweep_merge([str(shards[1]), str(shards[0])])
        self.assertEqual(in_memory.text, read(cli_merged / "results.csv"))
        self.assertEqual(in_memory.manifest, json.loads(read(cli_merged / "sweep.json")))
        self.assertIsNone(in_memory.pareto)
        pandas.testing.assert_frame_equal(in_memory.frame, pandas.read_csv(cli_merged / "results.csv"),
                                          check_exact=True)
        # Refused, in Python's words, writing nothing: a shard missing, a merge over a sweep.
        with self.assertRaisesRegex(RuntimeError, r"1 of 2 points are missing from the 1 shards: run the missing "
                                                  r"shards \(or resume them\) and merge again"):
            ergon.sweep_merge(shards[:1], self.folder / "half")
        self.assertFalse((self.folder / "half").exists())
        with self.assertRaisesRegex(RuntimeError, f"^out {out} already holds a sweep's results.csv"):
            ergon.sweep_merge(shards, out)

    def test_a_bad_link_is_refused_naming_it_before_anything_is_written(self):
        out = self.folder / "refused"
        cases = [
            ({"glb.banks": "glb.size_kib^2"},
             "links['glb.banks'] = glb.size_kib^2: at character 23 ('^2'): expected + - * / or the end"),
            (["glb.banks=glb.size_kib/24"],
             "links['glb.banks'] = glb.size_kib/24: glb.size_kib=32 gives glb.banks=1.33333333333, not a whole "
             "number at point 0"),
            ({"glb.filter_size_kb": "glb.size_kib/2"},
             "links['glb.filter_size_kb'] = glb.size_kib/2: glb.filter_size_kb: not a config key "
             "(ergon.config_keys() lists them); did you mean glb.filter_size_kib?"),
            (["glb.banks"], "links: 'glb.banks': expected KEY=EXPR, e.g. glb.filter_size_kib=glb.size_kib/2"),
            ({"glb.filter_size_kib": "batch*8"},
             "links['glb.filter_size_kib'] = batch*8: batch is neither swept (params['batch'] = ...) nor fixed "
             "(batch=N)"),
        ]
        for links, message in cases:
            with self.subTest(links=links):
                with self.assertRaises(ValueError) as raised:
                    ergon.sweep(self.config, [RESNET8], {"glb.size_kib": [32, 64]}, out, links=links)
                self.assertIsInstance(raised.exception, ergon.InputError)
                self.assertIn(message, str(raised.exception))
                self.assertNotIn("--", str(raised.exception))
                self.assertFalse(out.exists())

    def test_a_linked_value_the_config_refuses_names_the_link_and_the_point(self):
        out = self.folder / "refused-value"
        with self.assertRaises(ergon.InputError) as raised:
            ergon.sweep(self.config, [RESNET8], {"glb.size_kib": [32, 64]}, out,
                        links={"glb.filter_size_kib": "0 - glb.size_kib"})
        self.assertRegex(str(raised.exception), r"^links\['glb.filter_size_kib'\] = 0 - glb.size_kib: "
                                                r"glb.filter_size_kib: must be >= 0 .*\(got -32\) "
                                                r"\(glb.filter_size_kib=-32 at point 0 ")
        self.assertFalse(out.exists())

    def test_batch_fixed_and_swept_is_refused(self):
        with self.assertRaisesRegex(ergon.InputError, r"^sweep: batch=2 fixes the images per layer, which "
                                                      r"params\['batch'\] sweeps: give one of them$"):
            ergon.sweep(self.config, [RESNET8], {"batch": [1, 2]}, batch=2)


if __name__ == "__main__":
    unittest.main()
