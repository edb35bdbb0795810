#!/usr/bin/env bash
# `ergon fit lahmer` simulates the layer sweeps, fits the model and writes its samples, fit and plots.
set -euo pipefail
ergon="$(realpath "$1")"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$ergon" fit lahmer --jobs 2 --out "$out/fit" > "$out/summary.txt"
grep -q "R^2" "$out/summary.txt"
[ "$(tail -n +2 "$out/fit/samples.csv" | wc -l)" -eq 80 ]
python3 - "$out/fit/fit.json" "$out/fit/samples.csv" <<'PY'
import csv, json, sys
fit = json.load(open(sys.argv[1]))
assert fit["conv"]["samples"] == 68 and fit["fc"]["samples"] == 12, fit
assert 0 <= fit["fc"]["r_squared"] <= 1 and fit["a_f"] > 0, fit
rows = list(csv.DictReader(open(sys.argv[2])))
assert all(float(r["energy_j"]) > 0 for r in rows)
# The model column is the fitted formula applied to each row.
for r in rows:
    load, ofm = float(r["load"]), float(r["ofm"])
    expected = load * fit["a_f"] if r["fully_connected"] == "1" else load * (fit["a_c"] + fit["b_c"] * ofm)
    assert abs(float(r["model_energy_j"]) - expected) <= 1e-5 * abs(expected), (r, expected)
PY
if command -v gnuplot > /dev/null; then [ -s "$out/fit/energy_vs_clc.png" ] && [ -s "$out/fit/slope_vs_ofm.svg" ]; fi
echo "lahmer fit checks passed"
