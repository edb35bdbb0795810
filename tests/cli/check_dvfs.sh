#!/usr/bin/env bash
# `ergon dvfs` re-simulates an ARADA schedule: report.json carries per-layer levels and the simulated
# totals; activity.csv and trace.vcd show the clock changing. `ergon dvfs-study` covers ARADA's grid.
set -euo pipefail
ergon="$(realpath "$1")"
source_dir="$(realpath "$2")"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$ergon" dvfs --config "$source_dir/configs/hpc_tpu.yaml" --set dram.preset=ddr5-4800 \
  --workload "$source_dir/workloads/mobilenet_v1.yaml" --scheme ideal --trace vcd --out "$out/dvfs" > "$out/table.txt"
grep -q "saving .* simulated" "$out/table.txt"
python3 - "$out/dvfs/report.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
layers = [l for l in report["layers"] if l["executed"]]
for key in ("name", "freq_mhz", "voltage_v", "dram_bandwidth_gbps", "stall_share", "time_ns", "energy_pj"):
    assert all(key in l for l in layers), key
assert min(l["freq_mhz"] for l in layers) < 940, "no layer was slowed"
total = report["total"]
assert total["energy_saving_pct"] > 1, total
assert abs(total["latency_change_pct"]) < 5, total
assert report["scheme"] == "ideal"
PY
# The activity trace records the level in force: several frequencies appear, in order of time.
[ "$(tail -n +2 "$out/dvfs/activity.csv" | cut -d, -f10 | sort -u | wc -l)" -gt 2 ]
grep -q ' )$' "$out/dvfs/trace.vcd"  # the frequency signal changes
awk '/^#/ { t = substr($0, 2) + 0; if (t < last) exit 1; last = t }' "$out/dvfs/trace.vcd"

# The study grid for one workload: 11 accelerator/DRAM pairs x 4 schemes.
"$ergon" dvfs-study --workload resnet18 --jobs 2 --out "$out/study" > /dev/null 2>&1
[ "$(tail -n +2 "$out/study/study.csv" | wc -l)" -eq 44 ]
[ "$(tail -n +2 "$out/study/averages.csv" | wc -l)" -eq 44 ]
if command -v gnuplot > /dev/null; then [ -s "$out/study/study.png" ] && [ -s "$out/study/study.svg" ]; fi
# One worker gives the same tables, byte for byte; so does the schedule run again.
"$ergon" dvfs-study --workload resnet18 --jobs 1 --out "$out/study_serial" > /dev/null 2>&1
for file in study.csv averages.csv; do cmp "$out/study/$file" "$out/study_serial/$file"; done
"$ergon" dvfs --config "$source_dir/configs/hpc_tpu.yaml" --set dram.preset=ddr5-4800 \
  --workload "$source_dir/workloads/mobilenet_v1.yaml" --scheme ideal --trace vcd --out "$out/again" > /dev/null
for file in report.json layers.csv activity.csv trace.vcd; do cmp "$out/dvfs/$file" "$out/again/$file"; done
echo "dvfs checks passed"
