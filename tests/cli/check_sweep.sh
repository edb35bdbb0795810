#!/usr/bin/env bash
# `ergon sweep`: the same sweep run in one process with 1 or 2 workers, in both point orders, as two shards under GNU parallel
# merged with `ergon sweep-merge`, and resumed after an interruption, gives byte-identical results.csv.
set -euo pipefail
ergon="$(realpath "$1")"
source_dir="$(realpath "$2")"
source "$(dirname "$0")/plot_checks.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
sweep=("$ergon" sweep --config "$source_dir/configs/eyeriss.yaml"
  --workload "$source_dir/workloads/resnet8.yaml" --workload "$source_dir/workloads/ds_cnn.yaml"
  --param glb.size_kib=16:64:*2 --param noc.ifmap_bus_words=2,4)

"${sweep[@]}" --jobs 2 --out "$out/single" > /dev/null 2> "$out/progress.txt"
[ "$(grep -c ',"total",' "$out/single/results.csv")" -eq 12 ]  # 2 workloads x 3 sizes x 2 widths
"${sweep[@]}" --jobs 1 --out "$out/serial" > /dev/null 2>&1
cmp "$out/single/results.csv" "$out/serial/results.csv"
# The points run last first (one worker, so the order is certain) give the same bytes.
"${sweep[@]}" --jobs 1 --reverse --out "$out/reversed" > /dev/null 2> "$out/reversed.txt"
grep -q '^\[1/12\] point 11 ' "$out/reversed.txt"
cmp "$out/single/results.csv" "$out/reversed/results.csv"
cmp "$out/single/sweep.json" "$out/reversed/sweep.json"
"${sweep[@]}" --jobs 2 --reverse --out "$out/reversed2" > /dev/null 2>&1
cmp "$out/single/results.csv" "$out/reversed2/results.csv"

# Points are listed per shard; the shards partition them.
[ "$("${sweep[@]}" --list-points | wc -l)" -eq 12 ]
[ "$("${sweep[@]}" --list-points --shard 1/2 | wc -l)" -eq 6 ]

# Two shards through GNU parallel, merged: the single-process result, byte for byte.
parallel --will-cite "${sweep[@]}" --jobs 1 --shard {}/2 --out "$out/shard{}" '>' /dev/null '2>&1' ::: 0 1
"$ergon" sweep-merge "$out/shard0" "$out/shard1" --out "$out/merged" > /dev/null
cmp "$out/single/results.csv" "$out/merged/results.csv"
# A missing shard is reported, not silently merged.
if "$ergon" sweep-merge "$out/shard0" --out "$out/partial" > /dev/null 2> "$out/err.txt"; then exit 1; fi
grep -q "points are missing" "$out/err.txt"
# Edited files are named, with the fix: a broken sweep.json, a row whose point index is not one.
cp -r "$out/shard1" "$out/broken"
echo '{"points": ' > "$out/broken/sweep.json"
if "$ergon" sweep-merge "$out/shard0" "$out/broken" --out "$out/bad_merge" > /dev/null 2> "$out/err.txt"; then exit 1; fi
grep -q "broken/sweep.json: not valid JSON" "$out/err.txt"
mkdir "$out/edited" && cp "$out/single/sweep.json" "$out/edited/"
{ head -3 "$out/single/results.csv"; echo 'x,"resnet8",16,2,"total",'; } > "$out/edited/results.csv"
if "${sweep[@]}" --out "$out/edited" --resume > /dev/null 2> "$out/err.txt"; then exit 1; fi
grep -q "edited/results.csv:4:1: a row without a valid point index (got 'x')" "$out/err.txt"

# An interrupted sweep: five whole points and a cut-off line; --resume finishes it identically.
mkdir "$out/resumed"
cp "$out/single/sweep.json" "$out/resumed/"
awk -F, 'NR == 1 || $1 < 5' "$out/single/results.csv" > "$out/resumed/results.csv"
grep ',"total",' "$out/single/results.csv" | awk -F, '$1 == 7' | head -c 40 >> "$out/resumed/results.csv"
"${sweep[@]}" --jobs 2 --out "$out/resumed" --resume > /dev/null 2> "$out/resume.txt"
grep -q "5 already finished, 7 to run" "$out/resume.txt"
cmp "$out/single/results.csv" "$out/resumed/results.csv"

# Layer names holding a line break, a comma and quotes (legal YAML) are quoted in results.csv, which is read
# back as CSV: the sweep finishes, and a sweep cut after its first point resumes to the same bytes.
cat > "$out/odd.yaml" <<'YAML'
name: odd
source: test
layers:
  - {name: image, op: input, shape: [3, 16, 16]}
  - {name: "conv\n1", op: conv, inputs: [image], filters: 8, kernel: 3, padding: 1}
  - {name: "fc, \"last\"", op: fc, inputs: ["conv\n1"], outputs: 4}
YAML
odd=("$ergon" sweep --workload "$out/odd.yaml" --param glb.size_kib=8,16,32 --jobs 1)
"${odd[@]}" --out "$out/odd" > /dev/null 2>&1
python3 - "$out/odd/results.csv" <<'PY'
import csv, sys
layers = [row["layer"] for row in csv.DictReader(open(sys.argv[1], newline=""))]
assert layers == ["conv\n1", 'fc, "last"', "total"] * 3, layers
PY
mkdir "$out/odd_resumed" && cp "$out/odd/sweep.json" "$out/odd_resumed/"
python3 - "$out/odd/results.csv" "$out/odd_resumed/results.csv" <<'PY'
import sys
text = open(sys.argv[1], newline="").read()
first_total = text.index('0,"odd",8,"total"')
open(sys.argv[2], "w", newline="").write(text[:text.index("\n", first_total) + 1])
PY
"${odd[@]}" --out "$out/odd_resumed" --resume > /dev/null 2> "$out/odd_resume.txt"
grep -q "1 already finished, 2 to run" "$out/odd_resume.txt"
cmp "$out/odd/results.csv" "$out/odd_resumed/results.csv"

# A long check of the swept values shows its progress (a plain line after a second: stderr is a file).
if "$ergon" sweep --workload "$out/odd.yaml" --param glb.size_kib=1:40000:1 --param dram.preset=lpddr4,bogus \
  --out "$out/long" > /dev/null 2> "$out/long.txt"; then exit 1; fi
grep -q "^progress: checking the swept values: .* of 40002 values" "$out/long.txt"
grep -q "error: --param dram.preset=bogus: dram.preset: unknown DRAM preset 'bogus'" "$out/long.txt"

# Finished work is never overwritten without --resume.
if "${sweep[@]}" --out "$out/single" > /dev/null 2> "$out/err.txt"; then exit 1; fi
grep -q "pass --resume" "$out/err.txt"
# A key that is not in the config is named.
if "$ergon" sweep --workload "$source_dir/workloads/resnet8.yaml" --param glb.size_kb=8,16 --out "$out/bad" \
  > /dev/null 2> "$out/err.txt"; then exit 1; fi
grep -q "size_kb" "$out/err.txt"

# --plot: energy against the GLB size, PNG and SVG, and the optimum.
"$ergon" sweep --config "$source_dir/configs/eyeriss.yaml" --workload "$source_dir/workloads/resnet8.yaml" \
  --param glb.size_kib=8:128:*2 --plot --out "$out/plot" > "$out/plot.txt" 2> /dev/null
grep -q "least energy" "$out/plot.txt"
if command -v gnuplot > /dev/null; then
  [ -s "$out/plot/energy_resnet8.png" ] && [ -s "$out/plot/energy_resnet8.svg" ]
fi
check_plots "$out/plot"
# The plot's data file and the printed optimum are what results.csv holds, read here by column name with
# Python's csv (the .dat file names each component; together they make up total_pj).
python3 - "$out/plot" "$out/plot.txt" <<'PY'
import csv, math, re, sys
folder, printed = sys.argv[1], open(sys.argv[2]).read()
with open(folder + "/results.csv", newline="") as results:
    totals = {float(row["glb.size_kib"]): row for row in csv.DictReader(results) if row["layer"] == "total"}
lines = open(folder + "/energy_resnet8.dat").read().splitlines()
components = [name[:-len("_uJ")] for name in lines[0].split()[2:]]
assert lines[0].split()[1] == "glb.size_kib" and components, lines[0]
rows = [[float(x) for x in line.split()] for line in lines[1:]]
assert sorted(totals) == [row[0] for row in rows], (sorted(totals), rows)
for row in rows:
    result = totals[row[0]]
    for component, uj in zip(components, row[1:]):
        assert math.isclose(uj, float(result[component + "_pj"]) / 1e6, rel_tol=1e-5), (row[0], component, uj)
    assert math.isclose(sum(row[1:]), float(result["total_pj"]) / 1e6, rel_tol=1e-5), (row[0], "sum", row)
total_uj = {size: float(row["total_pj"]) / 1e6 for size, row in totals.items()}
best = min(total_uj, key=total_uj.get)
within = min(size for size in total_uj if total_uj[size] <= total_uj[best] * 1.02)
expected = "resnet8: least energy {:.2f} uJ at glb.size_kib={:g}; smallest glb.size_kib within 2% of it: {:g} " \
           "({:.2f} uJ, +{:.2f}%)".format(total_uj[best], best, within, total_uj[within],
                                         100 * (total_uj[within] / total_uj[best] - 1))
assert expected in printed, (expected, printed)
PY
# docs/glb-study.md: its command, the line it prints and its table are what the binary gives.
python3 "$(dirname "$0")/check_glb_study.py" "$ergon" "$source_dir" "$out"
echo "sweep checks passed"
