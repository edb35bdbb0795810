#!/usr/bin/env python3
"""Replays every topology and config shipped with SCALE-Sim v2 and v3 through Ergon.

tests/data/scalesim/inputs.tsv lists each file with what SCALE-Sim's own parsers make of it (v2 and v3, run
on each file). Every input at least one SCALE-Sim version accepts must import (`ergon import scalesim`) and
run (`ergon run --scalesim-config ... --scalesim-topology ...`); topologies with each repository's
configs/scale.cfg, configs with the smallest topology of their repository. Inputs both versions reject are
listed, not required. Run `bash scripts/fetch_scalesim_inputs.sh` first. Standard library only.
    python3 scripts/check_scalesim_inputs.py [--ergon build/cli/ergon] [--inputs build/scalesim-inputs]
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ergon_run(ergon, config, topology, seconds):
    """The run's error ('' when it succeeded, None when it outlasted `seconds`) and its warnings."""
    with tempfile.TemporaryDirectory() as out:
        try:
            done = subprocess.run([ergon, "run", "--scalesim-config", config, "--scalesim-topology", topology,
                                   "--out", os.path.join(out, "run")], capture_output=True, text=True,
                                  timeout=seconds)
        except subprocess.TimeoutExpired:
            return None, []
    warnings = [line for line in done.stderr.splitlines() if line.startswith("warning:")]
    error = "" if done.returncode == 0 else done.stderr.strip().splitlines()[-1]
    return error, warnings


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ergon", default=os.path.join(ROOT, "build", "cli", "ergon"))
    parser.add_argument("--inputs", default=os.path.join(ROOT, "build", "scalesim-inputs"))
    parser.add_argument("--timeout", type=float, default=300.0,
                        help="seconds per run; longer runs are listed as unfinished, not failed (default 300)")
    args = parser.parse_args()
    with open(os.path.join(ROOT, "tests", "data", "scalesim", "inputs.tsv")) as manifest:
        rows = list(csv.DictReader(manifest, delimiter="\t"))
    required = failed = rejected = warned = unfinished = 0
    for row in rows:
        base = os.path.join(args.inputs, os.path.basename(row["repo"]))
        path = os.path.join(base, row["path"])
        accepted = "accepts" in (row["scalesim_v2"], row["scalesim_v3"])
        if not accepted:
            rejected += 1
            continue
        required += 1
        if row["kind"] == "cfg":
            error, warnings = ergon_run(args.ergon, path, os.path.join(base, "topologies/conv_nets/test.csv"),
                                        args.timeout)
        else:
            error, warnings = ergon_run(args.ergon, os.path.join(base, "configs/scale.cfg"), path, args.timeout)
        warned += 1 if warnings else 0
        if error is None:
            unfinished += 1
            print(f"SLOW   {row['repo']}:{row['path']}: still running after {args.timeout:.0f} s (imported)")
        elif error:
            failed += 1
            print(f"FAILED {row['repo']}:{row['path']}: {error}")
        for warning in warnings:
            print(f"       {row['path']}: {warning}")
    print(f"\n{required - failed - unfinished} of {required} inputs SCALE-Sim accepts ran in Ergon ({warned} with "
          f"warnings), {unfinished} were still running after {args.timeout:.0f} s, {failed} failed; {rejected} that "
          f"both SCALE-Sim versions reject were skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
