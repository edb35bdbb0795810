#!/usr/bin/env bash
# A sweep stopped by SIGINT or SIGTERM leaves a results.csv of whole finished points, and --resume completes
# it to exactly what an uninterrupted sweep writes.
set -euo pipefail
ergon="$(realpath "$1")"
source_dir="$(realpath "$2")"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
sweep=("$ergon" sweep --config "$source_dir/configs/eyeriss.yaml" --workload "$source_dir/workloads/vgg16.yaml"
  --param glb.size_kib=16:1616:8 --jobs 2)
"${sweep[@]}" --out "$out/whole" > /dev/null 2>&1
for signal in INT TERM; do
  dir="$out/stopped-$signal"
  "${sweep[@]}" --out "$dir" > /dev/null 2>&1 &
  pid=$!
  # Stop it once some points are in, but not all.
  for _ in $(seq 1 200); do
    finished=$(grep -c ',"total",' "$dir/results.csv" 2> /dev/null || true)
    [ "${finished:-0}" -ge 3 ] && break
    sleep 0.05
  done
  kill -s "$signal" "$pid"
  wait "$pid" || true
  finished=$(grep -c ',"total",' "$dir/results.csv")
  if [ "$finished" -ge 201 ]; then echo "the sweep ended before the $signal arrived"; exit 1; fi
  # Whole points only: every point that has rows has its total row (a cut-off last line is ignored).
  python3 - "$dir/results.csv" <<'PY'
import csv, sys
lines = open(sys.argv[1]).read().split("\n")
complete = [l for l in lines[1:-1]]  # the last element is empty or a line cut off mid-write
points, totals = set(), set()
for row in csv.reader(complete):
    points.add(row[0])
    if row[3] == "total":
        totals.add(row[0])
assert points - totals <= {sorted(points, key=int)[-1]} if points else True, (points - totals)
PY
  "${sweep[@]}" --out "$dir" --resume > /dev/null 2> "$out/resume.txt"
  grep -q "$finished already finished" "$out/resume.txt"
  cmp "$out/whole/results.csv" "$dir/results.csv"
done
echo "interrupt checks passed"
