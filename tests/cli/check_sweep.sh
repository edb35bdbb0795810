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
echo "sweep checks passed"
