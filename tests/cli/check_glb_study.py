"""docs/glb-study.md against the binary: runs the sweep command the doc gives and checks that the line it
prints and every row of the doc's table are what the binary prints and what results.csv holds (read here
with Python's csv, by column name). With --print, prints the doc's blocks from a fresh run instead.

    python3 tests/cli/check_glb_study.py ERGON SOURCE_DIR SCRATCH_DIR [--print]
"""
import csv
import os
import re
import shlex
import subprocess
import sys

DOC = "docs/glb-study.md"
SUMMARY_PATTERN = re.compile(r"^alexnet: least energy .*$", re.M)
MAC_RF_NOC_CONTROL = ["mac_pj", "rf_pj", "noc_pj", "control_pj", "leakage_pj"]


def doc_command(doc):
    """The doc's `build/cli/ergon sweep ...` command, its line continuations joined, as arguments."""
    block = re.search(r"```sh\n(build/cli/ergon sweep .*?)```", doc, re.S).group(1)
    return shlex.split(block.replace("\\\n", " "))


def run_doc_command(ergon, source_dir, scratch, doc):
    arguments = doc_command(doc)
    out = arguments.index("--out")
    arguments[out + 1] = os.path.join(scratch, "glb")
    arguments[0] = ergon
    printed = subprocess.run(arguments + ["--quiet"], cwd=source_dir, check=True, capture_output=True,
                             text=True).stdout
    return printed, arguments[out + 1]


def table_rows(results_path):
    """The doc's table, a row per GLB size, from results.csv's total rows."""
    with open(results_path, newline="") as results:
        totals = [row for row in csv.DictReader(results) if row["layer"] == "total"]
    mj = lambda row, *columns: sum(float(row[c]) for c in columns) / 1e9
    best = min(float(row["total_pj"]) for row in totals)
    rows = {}
    for row in totals:
        size = float(row["glb.size_kib"])
        total = float(row["total_pj"])
        rows[size] = "| {:g} | {:.2f} | {:.2f} | {:.2f} | {:.2f} | {:.3f} | {} | {:.2f} |".format(
            size, mj(row, "glb_pj"), mj(row, "dram_pj"), mj(row, "clock_pj"), mj(row, *MAC_RF_NOC_CONTROL),
            total / 1e9, "optimum" if total == best else "+{:.2f} %".format(100 * (total / best - 1)),
            (int(row["dram_read_bytes"]) + int(row["dram_write_bytes"])) / 1e6)
    return rows


def main():
    ergon, source_dir, scratch = sys.argv[1:4]
    doc = open(os.path.join(source_dir, DOC)).read()
    printed, folder = run_doc_command(ergon, source_dir, scratch, doc)
    summary = SUMMARY_PATTERN.search(printed).group(0)
    rows = table_rows(os.path.join(folder, "results.csv"))
    if "--print" in sys.argv:
        print(summary)
        for size in sorted(rows):
            print(rows[size])
        print("figure:", os.path.join(folder, "energy_alexnet.png"))
        return
    failures = []
    if summary not in doc:
        failures.append(f"the doc lacks the line the command prints:\n  {summary}")
    doc_rows = [line for line in doc.splitlines() if re.match(r"^\| \d", line)]
    if not doc_rows:
        failures.append("the doc has no table rows")
    for line in doc_rows:
        size = float(line.split("|")[1])
        if rows.get(size) != line:
            failures.append(f"the doc's row\n  {line}\nis not what results.csv holds:\n  {rows.get(size)}")
    if failures:
        sys.exit("\n".join(failures))
    print(f"glb-study checks passed ({len(doc_rows)} rows)")


if __name__ == "__main__":
    main()
