"""The config schema from Python: ergon.config_keys() is `ergon config keys`, a Config's values are
`ergon config show`, and load_config's overrides are checked by the same declarations (docs/python.md).

Run by ctest with PYTHONPATH at the build's python/ folder, ERGON_BINARY the ergon executable and
ERGON_SOURCE_DIR the source tree.
"""
import json
import os
import pathlib
import subprocess
import unittest

import ergon

SOURCE = pathlib.Path(os.environ["ERGON_SOURCE_DIR"])
ERGON = os.environ["ERGON_BINARY"]
EYERISS = SOURCE / "configs" / "eyeriss.yaml"


def cli_json(*args):
    return json.loads(subprocess.run([ERGON, *map(str, args), "--format", "json"], check=True, capture_output=True,
                                     text=True).stdout)


class ConfigSchemaTest(unittest.TestCase):
    def test_keys_are_the_command_lines(self):
        keys = ergon.config_keys()
        self.assertEqual(keys, cli_json("config", "keys"))
        by_path = {key["key"]: key for key in keys}
        self.assertEqual(by_path["noc.psum_read_bus_words"]["default"], "4")
        self.assertEqual(by_path["pe_array.dataflow"]["choices"], ["os", "ws", "is", "auto"])
        self.assertEqual(by_path["dram.page_policy"]["applies_when"], "dram.impl: banked")
        self.assertTrue(all(key["help"] for key in keys))

    def test_values_are_config_show(self):
        config = ergon.load_config(EYERISS, {"mapper.objective": "edp"})
        shown = cli_json("config", "show", EYERISS, "--set", "mapper.objective=edp")
        del shown["energy"]["table_file"]  # derived, not keys: the table and the chip's area
        del shown["area_mm2"], shown["area_notes"]
        self.assertEqual(config.values, shown)
        self.assertEqual(config.values["mapper"]["objective"], "edp")

    def test_overrides_are_checked_by_the_declarations(self):
        rule = {key["key"]: key for key in ergon.config_keys()}["noc.ifmap_bus_words"]["range"]
        self.assertEqual(rule, "[1, 65536]")
        with self.assertRaisesRegex(ergon.InputError, r"noc.ifmap_bus_words: must be between 1 and 65536 \(got 0\)"):
            ergon.load_config(EYERISS, {"noc.ifmap_bus_words": 0})
        with self.assertRaisesRegex(ergon.InputError, "did you mean 'prefetch'"):
            ergon.load_config(SOURCE / "configs" / "edge_tpu.yaml", {"glb.prefetc": "run_ahead"})
        with self.assertRaisesRegex(ergon.InputError, "dram.page_policy applies to dram.impl: banked only"):
            ergon.load_config(EYERISS, {"dram.page_policy": "closed"})


if __name__ == "__main__":
    unittest.main()
