#!/usr/bin/env bash
# `ergon bench-phases`: the shipped STM32N6 cost model is what calibration on H-Perf gives; the phase
# benchmark writes per-phase figures, rEDP for two points, and traces with Table II's trigger coding.
set -euo pipefail
ergon="$(realpath "$1")"
source_dir="$(realpath "$2")"
source "$(dirname "$0")/plot_checks.sh"
config="$source_dir/configs/stm32n6.yaml"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# The fitted values in the config are reproduced by the calibration (no hand-tuning).
"$ergon" bench-phases --config "$config" --calibrate | tail -n +2 > "$out/fit.yaml"
diff <(sed -n '/^  cpu:/,$p' "$config") "$out/fit.yaml"
"$ergon" bench-phases --config "$config" --workload "$source_dir/workloads/resnet8.yaml" --point h-perf \
  --point l-perf --runs 2 --out "$out/bench" > "$out/table.txt"
grep -q "rEDP of l-perf against h-perf" "$out/table.txt"
python3 - "$out/bench/phases.json" "$out/bench/h-perf/power_trace.csv" <<'PY'
import csv, json, sys
report = json.load(open(sys.argv[1]))
h = report["points"]["h-perf"]
total = sum(h[p]["energy_uj"] for p in ("pre_inference", "inference", "post_inference"))
assert abs(total - h["total"]["energy_uj"]) < 1e-9 * total
assert abs(h["total"]["edp_js"] - h["total"]["energy_uj"] * h["total"]["latency_us"] * 1e-12) < 1e-18
assert "total" in report["redp_pct"]
rows = list(csv.DictReader(open(sys.argv[2])))
coding = {(r["phase"], r["trigger1"], r["trigger2"]) for r in rows}
assert coding == {("pre-inference", "1", "0"), ("inference", "1", "1"), ("post-inference", "0", "1"),
                  ("idle", "0", "0")}, coding  # Table II (its third row's typo corrected)
energies = [float(r["cumulative_energy_uj"]) for r in rows]
assert energies == sorted(energies)
PY
grep -q 'trigger1' "$out/bench/h-perf/trace.vcd"
"$ergon" bench-phases --config "$config" --against-measurements --out "$out/meas" > "$out/meas.txt"
# 32 phase rows and their header, then the per-model ratio table (header + 4 models).
[ "$(grep -c '^| ' "$out/meas/against_measurements.md")" -eq 38 ]
grep -q "predicted points: RMS error per phase, in-sample .*; leave-one-model-out" "$out/meas.txt"
grep -q "rEDP signs right: [0-9]* of 16" "$out/meas.txt"
# Fig. 5 and Fig. 6 data and scripts (the images when gnuplot is installed).
[ "$(wc -l < "$out/meas/phases.csv")" -eq 17 ]  # header + 4 models x 4 phases
for fig in fig5_phases fig6_edp; do
  [ -s "$out/meas/$fig.gp" ]
  if command -v gnuplot > /dev/null; then [ -s "$out/meas/$fig.png" ] && [ -s "$out/meas/$fig.svg" ]; fi
done
check_plots "$out/meas"
# --batch 2: the NPU runs both images (`ergon run`'s time at the point's clock, per layer overheads once), and
# the phases around it move twice the bytes; the measurements are one image per inference, so
# --against-measurements refuses a batch (usage error).
bench=(bench-phases --config "$config" --workload "$source_dir/workloads/resnet8.yaml" --point h-perf --format json)
"$ergon" "${bench[@]}" > "$out/b1.json"
"$ergon" "${bench[@]}" --batch 2 > "$out/b2.json"
"$ergon" run --config "$config" --workload "$source_dir/workloads/resnet8.yaml" --batch 2 --format json -q \
  > "$out/run_b2.json"
python3 - "$out/b1.json" "$out/b2.json" "$out/run_b2.json" <<'PY'
import json, sys
one, two, run = (json.load(open(p)) for p in sys.argv[1:4])
assert one["batch"] is None and two["batch"] == 2 and two["fidelity"] == "tlm", (one["batch"], two["batch"])
h1, h2 = one["points"]["h-perf"], two["points"]["h-perf"]
assert h2["input_bytes"] == 2 * h1["input_bytes"] and h2["outputs"] == 2 * h1["outputs"], (h1, h2)
assert h2["npu_simulated_us"] > 1.5 * h1["npu_simulated_us"], (h1["npu_simulated_us"], h2["npu_simulated_us"])
assert (run["config"]["frequency_mhz"], run["config"]["dram_bandwidth_gbps"]) == (1000, 7.2), run["config"]  # h-perf
assert abs(h2["npu_simulated_us"] - run["total"]["time_ns"] / 1e3) < 1e-9 * h2["npu_simulated_us"]
PY
if "$ergon" bench-phases --config "$config" --against-measurements --batch 2 2> "$out/batch.err"; then exit 1; else
  [ $? -eq 2 ]; fi
grep -q "one image per inference" "$out/batch.err"
echo "bench-phases checks passed"
