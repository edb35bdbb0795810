#!/usr/bin/env bash
# `ergon sweep` and `sweep-merge` beyond the grid: linked keys (--link), a swept or fixed batch, print-only runs
# in every --format, plots over two keys (--plot-by), merged plots and the Pareto front (--pareto). Every figure
# and front is checked against results.csv, read with Python's csv by column name.
set -euo pipefail
ergon="$(realpath "$1")"
source_dir="$(realpath "$2")"
source "$(dirname "$0")/plot_checks.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mkdir "$out/tmp" "$out/cwd"
export TMPDIR="$out/tmp"  # a print-only run's scratch folder goes here, and must be gone afterwards
cd "$out/cwd"             # and a print-only run writes nothing here
for name in tiny other; do
  cat > "$out/$name.yaml" <<YAML
name: $name
source: test
layers:
  - {name: image, op: input, shape: [3, 16, 16]}
  - {name: conv1, op: conv, inputs: [image], filters: 8, kernel: 3, padding: 1}
  - {name: fc, op: fc, inputs: [conv1], outputs: $([ $name = tiny ] && echo 4 || echo 16)}
YAML
done
config="$source_dir/configs/eyeriss.yaml"
base=("$ergon" sweep --config "$config" --workload "$out/tiny.yaml" --jobs 1 --quiet)
fails() {  # fails STATUS TEXT COMMAND...: the command exits with STATUS and says TEXT on stderr
  local status=$1 text=$2
  shift 2
  local got=0
  "$@" > "$out/stdout.txt" 2> "$out/err.txt" || got=$?
  [ "$got" -eq "$status" ] || { echo "exit $got, expected $status: $*"; cat "$out/err.txt"; exit 1; }
  grep -qF -- "$text" "$out/err.txt" || { echo "expected '$text' from: $*"; cat "$out/err.txt"; exit 1; }
}

# --- Linked keys: a column each, set at every point as if given by --set, recorded in sweep.json ---
links=(--param glb.size_kib=16,32,64 --link glb.filter_size_kib=glb.size_kib/2 --link "glb.banks = glb.size_kib / 16")
"${base[@]}" "${links[@]}" --out "$out/links" > /dev/null 2>&1
python3 - "$out/links" <<'PY'
import csv, json, sys
folder = sys.argv[1]
rows = list(csv.DictReader(open(folder + "/results.csv", newline="")))
assert rows and list(rows[0])[2:6] == ["glb.size_kib", "glb.filter_size_kib", "glb.banks", "layer"], list(rows[0])
for row in rows:
    size = float(row["glb.size_kib"])
    assert float(row["glb.filter_size_kib"]) == size / 2 and row["glb.banks"] == str(int(size / 16)), row
links = json.load(open(folder + "/sweep.json"))["links"]
assert links == [{"key": "glb.filter_size_kib", "expression": "glb.size_kib/2", "values": ["8", "16", "32"]},
                 {"key": "glb.banks", "expression": "glb.size_kib / 16", "values": ["1", "2", "4"]}], links
PY
# The linked values are simulated: point 1 is the sweep of glb.size_kib=32 with both keys fixed by --set.
"${base[@]}" --param glb.size_kib=32 --set glb.filter_size_kib=16 --set glb.banks=2 --format csv > "$out/fixed.csv"
python3 - "$out/links/results.csv" "$out/fixed.csv" <<'PY'
import csv, sys
linked = [r for r in csv.DictReader(open(sys.argv[1], newline="")) if r["point"] == "1"]
fixed = list(csv.DictReader(open(sys.argv[2], newline="")))
keys = ("point", "glb.filter_size_kib", "glb.banks")
assert len(linked) == len(fixed) == 3
for a, b in zip(linked, fixed):
    assert {k: v for k, v in a.items() if k not in keys} == {k: v for k, v in b.items() if k not in keys}, (a, b)
PY
# --resume: the same links continue; other linked values are another sweep.
"${base[@]}" "${links[@]}" --resume --out "$out/links" > /dev/null 2> "$out/err.txt"
fails 1 "holds a different sweep" "${base[@]}" --param glb.size_kib=16,32,64 --link glb.filter_size_kib=glb.size_kib/4 \
  --link "glb.banks=glb.size_kib/16" --resume --out "$out/links"
# An integer key needs a whole result, named with the point; EXPR's grammar is enforced with the position.
fails 1 "--link glb.banks=glb.size_kib/24: glb.size_kib=16 gives glb.banks=0.666666666667, not a whole number at point 0" \
  "${base[@]}" --param glb.size_kib=16,32 --link glb.banks=glb.size_kib/24
fails 1 "--link glb.banks=glb.size_kib^2: at character 23 ('^2'): expected + - * / or the end" \
  "${base[@]}" --param glb.size_kib=16,32 --link 'glb.banks=glb.size_kib^2'
fails 1 "--link glb.size_kib=glb.banks*8: glb.size_kib is already swept by --param glb.size_kib=16,32" \
  "${base[@]}" --param glb.size_kib=16,32 --link glb.size_kib=glb.banks*8
# A value the config refuses is named by its --link and point, not as a --param or --set never given.
fails 1 "--link glb.banks=glb.size_kib*10000: glb.banks: " \
  "${base[@]}" --param glb.size_kib=16,32 --link glb.banks=glb.size_kib*10000
grep -qF "(glb.banks=160000 at point 0 " "$out/err.txt"

# --- batch: swept as a key (the images per layer), or fixed by --batch ---
"${base[@]}" --param glb.size_kib=16 --param batch=1,4 --format csv > "$out/batch.csv"
"${base[@]}" --param glb.size_kib=16 --batch 3 --format csv > "$out/batch3.csv"
python3 - "$out/batch.csv" "$out/batch3.csv" <<'PY'
import csv, sys
totals = {r["batch"]: int(r["macs"]) for r in csv.DictReader(open(sys.argv[1], newline="")) if r["layer"] == "total"}
assert totals["4"] == 4 * totals["1"], totals
fixed = [int(r["macs"]) for r in csv.DictReader(open(sys.argv[2], newline="")) if r["layer"] == "total"]
assert fixed == [3 * totals["1"]], fixed
PY
fails 2 "--batch 2 fixes batch, which --param batch=1,4 sweeps" "${base[@]}" --param batch=1,4 --batch 2
fails 1 "--param batch=0,4: batch: '0' is not a whole number of images in [1, 1048576]" "${base[@]}" --param batch=0,4
fails 2 "--batch" "${base[@]}" --param glb.size_kib=16 --batch 0

# --- Print-only: stdout in --format, nothing written; what needs a folder is refused ---
grid=(--workload "$out/other.yaml" --param clock.frequency_mhz=100,200,400 --param glb.size_kib=16,64)
"${base[@]}" "${grid[@]}" --pareto --out "$out/front" > /dev/null 2>&1
"${base[@]}" "${grid[@]}" --format csv > "$out/printed.csv"
cmp "$out/printed.csv" "$out/front/results.csv"
"${base[@]}" "${grid[@]}" --pareto --format csv > "$out/printed_front.csv"
cmp "$out/printed_front.csv" "$out/front/pareto.csv"
"${base[@]}" "${grid[@]}" --format json > "$out/printed.json"
"${base[@]}" "${grid[@]}" --format table > "$out/printed.txt"
"${base[@]}" "${grid[@]}" --format markdown > "$out/printed.md"
python3 - "$out/printed.json" "$out/front/results.csv" "$out/printed.txt" "$out/printed.md" <<'PY'
import csv, json, sys
printed = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2], newline="")))
assert printed["sweep"]["points"] == 12 and len(printed["results"]) == len(rows), len(printed["results"])
for got, row in zip(printed["results"], rows):
    assert got["total_pj"] == float(row["total_pj"]) and got["workload"] == row["workload"], (got, row)
table = open(sys.argv[3]).read().splitlines()
assert table[0].split()[:4] == ["point", "workload", "clock.frequency_mhz", "glb.size_kib"], table[0]
assert len(table) == 1 + 12 + 1, table  # a row per point and the closing note
assert open(sys.argv[4]).read().startswith("| point | workload |")
PY
[ -z "$(find "$out/cwd" "$out/tmp" -mindepth 1)" ]  # nothing written, the scratch folders gone
fails 2 "--resume continues the sweep in an --out folder" "${base[@]}" "${grid[@]}" --resume
fails 2 "--shard writes one shard's folder" "${base[@]}" "${grid[@]}" --shard 0/2
fails 2 "--plot writes files: give --out DIR" "${base[@]}" --param glb.size_kib=16,32 --plot
[ "$("${base[@]}" "${grid[@]}" --list-points --shard 1/2 | wc -l)" -eq 6 ]  # listing needs no folder

# --- The Pareto front: per workload, against every point of results.csv ---
python3 - "$out/front" <<'PY'
import csv, sys
folder = sys.argv[1]
rows = [r for r in csv.DictReader(open(folder + "/results.csv", newline="")) if r["layer"] == "total"]
front = list(csv.DictReader(open(folder + "/pareto.csv", newline="")))
objectives = ["time_ns", "total_pj"]
if "area_mm2" in rows[0] and all(r["area_mm2"] != "" for r in rows):
    objectives.append("area_mm2")
value = lambda row: [float(row[o]) for o in objectives]
dominates = lambda a, b: all(x <= y for x, y in zip(a, b)) and any(x < y for x, y in zip(a, b))
by_point = {r["point"]: r for r in rows}
on_front = {r["point"] for r in front}
assert all(by_point[r["point"]] == r for r in front), "a front row differs from its results.csv row"
dominated = 0
for row in rows:
    rivals = [r for r in rows if r["workload"] == row["workload"]]
    if row["point"] in on_front:
        assert not any(dominates(value(r), value(row)) for r in rivals), ("a front point is dominated", row["point"])
    else:
        dominated += 1
        assert any(dominates(value(by_point[p]), value(row)) for p in on_front
                   if by_point[p]["workload"] == row["workload"]), ("dominated by nothing on the front", row["point"])
assert dominated > 0 and len(front) > 2, (dominated, len(front))  # a front worth checking
# Its plot: every point at its latency (ms) and energy (uJ), the front as the second block.
for workload in {r["workload"] for r in rows}:
    blocks = open(f"{folder}/pareto_{workload}.dat").read().split("\n\n\n")
    plotted = [[l.split() for l in b.splitlines() if l and not l.startswith("#")] for b in blocks]
    mine = {r["point"] for r in rows if r["workload"] == workload}
    assert {p for _, _, p in plotted[0]} == mine and {p for _, _, p in plotted[1]} == mine & on_front, plotted
    for latency, energy, point in plotted[0]:
        assert abs(float(latency) - float(by_point[point]["time_ns"]) / 1e6) <= 1e-8 * float(latency)
        assert abs(float(energy) - float(by_point[point]["total_pj"]) / 1e6) <= 1e-8 * float(energy)
PY

# --- Plots over two keys: a line per value of --plot-by, each point the total energy results.csv holds ---
two=(--param glb.size_kib=16:64:*2 --param noc.ifmap_bus_words=2,4,8)
"${base[@]}" "${two[@]}" --plot-by noc.ifmap_bus_words --pareto --out "$out/two" > "$out/two.txt" 2> /dev/null
grep -q "^tiny: least energy .* at glb.size_kib=.*, noc.ifmap_bus_words=" "$out/two.txt"
check_plots "$out/two"
check_series() {  # check_series FOLDER: energy_tiny.dat against FOLDER/results.csv
  python3 - "$1" <<'PY'
import csv, math, re, sys
folder = sys.argv[1]
totals = {(float(r["glb.size_kib"]), r["noc.ifmap_bus_words"]): float(r["total_pj"]) / 1e6
          for r in csv.DictReader(open(folder + "/results.csv", newline="")) if r["layer"] == "total"}
lines = open(folder + "/energy_tiny.dat").read().splitlines()
heading = lines[0].split()
assert heading[:2] == ["#", "glb.size_kib"], heading
series = [re.fullmatch(r"noc\.ifmap_bus_words=(.+)", h).group(1) for h in heading[2:]]
assert series == ["2", "4", "8"], series
plotted = 0
for line in lines[1:]:
    x, *energies = line.split()
    for value, energy in zip(series, energies):
        assert math.isclose(float(energy), totals[(float(x), value)], rel_tol=1e-5), (x, value, energy)
        plotted += 1
assert plotted == len(totals) == 9, (plotted, len(totals))
gp = open(folder + "/energy_tiny.gp").read()
assert "set key" in gp and all(f'title "noc.ifmap_bus_words={v}"' in gp for v in series), gp
PY
}
check_series "$out/two"
fails 2 "--plot-by dram.preset: not a swept key" "${base[@]}" "${two[@]}" --plot-by dram.preset --out "$out/bad"
fails 2 "--plot draws energy against one swept key; this sweep has 2" "${base[@]}" "${two[@]}" --plot --out "$out/bad"

# --- sweep-merge: plots and front as the single run has them; without --out it prints the merged results ---
for shard in 0 1; do
  "${base[@]}" "${two[@]}" --shard "$shard/2" --out "$out/shard$shard" > /dev/null 2>&1
done
"$ergon" sweep-merge "$out/shard0" "$out/shard1" --plot-by noc.ifmap_bus_words --pareto --out "$out/merged" \
  > "$out/merged.txt"
for file in results.csv energy_tiny.dat energy_tiny.gp pareto.csv pareto_tiny.dat; do
  cmp "$out/two/$file" "$out/merged/$file"
done
check_series "$out/merged"
"$ergon" sweep-merge "$out/shard0" "$out/shard1" --format csv > "$out/merged_printed.csv"
cmp "$out/merged_printed.csv" "$out/two/results.csv"
"$ergon" sweep-merge "$out/shard0" "$out/shard1" --pareto --format csv > "$out/merged_front.csv"
cmp "$out/merged_front.csv" "$out/two/pareto.csv"
fails 2 "--plot writes files: give --out DIR" "$ergon" sweep-merge "$out/shard0" "$out/shard1" --plot
[ -z "$(find "$out/cwd" "$out/tmp" -mindepth 1)" ]
echo "sweep view checks passed"
