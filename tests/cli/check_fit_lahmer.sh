#!/usr/bin/env bash
# `ergon fit lahmer` simulates the layer sweeps, fits the model and writes its samples, fit and plots; with
# --measurements it fits a CSV of measured layer energies and writes parameters `estimate lahmer` reads.
set -euo pipefail
ergon="$(realpath "$1")"
source_dir="$(cd "$(dirname "$0")/../.." && pwd)"
source "$(dirname "$0")/plot_checks.sh"
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
check_plots "$out/fit"

# Measurements: the shipped synthetic example (Table III's Xavier NX model plus 3 % noise, not a measurement).
csv="$source_dir/tests/data/lahmer/synthetic_measurements.csv"
"$ergon" fit lahmer --measurements "$csv" --board nx-example --out "$out/measured" > "$out/measured.txt"
grep -q "RMSPE" "$out/measured.txt"
grep -q "exact KCLC, padding ignored" "$out/measured.txt"
python3 - "$out/measured/fit.json" "$out/measured/residuals.csv" <<'PY'
import csv, json, sys
fit = json.load(open(sys.argv[1]))
# Table III, Xavier NX: the parameters the example was generated from.
for key, value, tolerance in (("a_c", 2.8674e-08, 0.1), ("b_c", 4.7639e-10, 0.1), ("a_f", 6.2454e-09, 0.05)):
    assert abs(fit[key] / value - 1) < tolerance, (key, fit[key], value)
assert fit["conv"]["rows"] == 32 and fit["fc"]["rows"] == 9, fit
assert 0 < fit["conv"]["rmspe_pct"] < 10 and fit["kclc_padding"] == "ignore", fit
rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == 41 and rows[0]["name"] == "ofm8_in14", rows[0]
PY
# The written parameters are a parameter file for the estimator.
"$ergon" estimate lahmer --parameters "$out/measured/parameters.yaml" --board nx-example \
  --workload "$source_dir/workloads/vgg16.yaml" --format json > "$out/estimate.json"
python3 -c 'import json,sys; e=json.load(open(sys.argv[1])); assert e["total_energy_mj"] > 0 and e["unmodelled_compute_layers"] == 0 and e["kclc_padding"] == "ignore", e' "$out/estimate.json"
"$ergon" estimate lahmer --parameters "$out/measured/parameters.yaml" --board nx-example --kclc-padding include \
  --workload "$source_dir/workloads/vgg16.yaml" > "$out/estimate.txt"
grep -q "padding included" "$out/estimate.txt"
grep -q "WARNING: the parameters were fitted with --kclc exact --kclc-padding ignore" "$out/estimate.txt"

# An output never replaces the measurement file.
mkdir "$out/inside"
cp "$csv" "$out/inside/residuals.csv"
if "$ergon" fit lahmer --measurements "$out/inside/residuals.csv" --out "$out/inside" 2> "$out/err.txt"; then exit 1; fi
grep -q "the output residuals.csv would replace the input" "$out/err.txt"
cmp -s "$csv" "$out/inside/residuals.csv"
if "$ergon" fit lahmer --measurements "$csv" --out "$csv" 2> "$out/err.txt"; then exit 1; fi
grep -q "is a file, not a folder" "$out/err.txt"

# Bad input: located errors and a non-zero exit.
printf 'name,kind,i_size,ifm,ofm,ksize,stride,padding,o_size,energy_mj\na,conv,14,8,16,3,1,0,,-2\n' > "$out/bad.csv"
if "$ergon" fit lahmer --measurements "$out/bad.csv" --out "$out/bad" 2> "$out/err.txt"; then exit 1; fi
grep -q "bad.csv:2:.*row 1, column 'energy_mj': negative energy" "$out/err.txt"
if "$ergon" fit lahmer --measurements "$csv" --kclc approximate --kclc-padding include --out "$out/x" 2> "$out/err.txt"; then
  exit 1
fi
grep -q "approximate KCLC form" "$out/err.txt"
echo "lahmer fit checks passed"
