#!/usr/bin/env bash
# `ergon dvfs` re-simulates an ARADA schedule: report.json carries per-layer levels and the simulated
# totals; activity.csv and trace.vcd show the clock changing. `ergon dvfs-study` covers ARADA's grid.
set -euo pipefail
ergon="$(realpath "$1")"
source_dir="$(realpath "$2")"
source "$(dirname "$0")/plot_checks.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$ergon" dvfs --config "$source_dir/configs/hpc_tpu.yaml" --set dram.preset=ddr5-4800 \
  --workload "$source_dir/workloads/mobilenet_v1.yaml" --scheme ideal --trace vcd --trace perfetto \
  --out "$out/dvfs" > "$out/table.txt"
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
assert total["latency_change_pct"] <= 0.5 and total["latency_kept"], total
assert report["scheme"] == "ideal"
PY
# The activity trace records the level in force: several frequencies appear, in order of time.
[ "$(tail -n +2 "$out/dvfs/activity.csv" | cut -d, -f10 | sort -u | wc -l)" -gt 2 ]
grep -q ' )$' "$out/dvfs/trace.vcd"  # the frequency signal changes
grep -q 'real 64 + dram_bandwidth_gbps' "$out/dvfs/trace.vcd"
# Perfetto: the levels as counter tracks, starting at the nominal clock and taking the schedule's levels.
python3 - "$out/dvfs/trace.json" "$out/dvfs/report.json" <<'PY'
import json, sys
events = json.load(open(sys.argv[1]))["traceEvents"]
report = json.load(open(sys.argv[2]))
counters = {}
for e in events:
    if e.get("ph") == "C" and e.get("cat") == "dvfs":  # the DVFS levels, not the activity counters
        counters.setdefault(e["name"], []).append((e["ts"], e["args"]["value"]))
assert set(counters) == {"frequency_mhz", "voltage_v", "dram_bandwidth_gbps"}, counters.keys()
frequencies = {value for _, value in counters["frequency_mhz"]}
scheduled = {round(l["freq_mhz"], 3) for l in report["layers"] if l["executed"]}
assert len(frequencies) > 2 and {round(f, 3) for f in frequencies} <= scheduled | {940.0}, (frequencies, scheduled)
assert all(a[0] <= b[0] for a, b in zip(counters["voltage_v"], counters["voltage_v"][1:]))
PY
awk '/^#/ { t = substr($0, 2) + 0; if (t < last) exit 1; last = t }' "$out/dvfs/trace.vcd"

# The study grid for one workload: 11 accelerator/DRAM pairs x 4 schemes.
"$ergon" dvfs-study --workload resnet18 --jobs 2 --out "$out/study" > /dev/null 2>&1
[ "$(tail -n +2 "$out/study/study.csv" | wc -l)" -eq 44 ]
[ "$(tail -n +2 "$out/study/averages.csv" | wc -l)" -eq 44 ]
if command -v gnuplot > /dev/null; then [ -s "$out/study/study.png" ] && [ -s "$out/study/study.svg" ]; fi
check_plots "$out/study"
# One worker gives the same tables, byte for byte; so does the schedule run again.
"$ergon" dvfs-study --workload resnet18 --jobs 1 --out "$out/study_serial" > /dev/null 2>&1
for file in study.csv averages.csv; do cmp "$out/study/$file" "$out/study_serial/$file"; done
# Print-only: every row of both files in --format json, and nothing written (not in the working folder, not
# in the temporary folder).
mkdir "$out/cwd" "$out/tmp"
(cd "$out/cwd" && TMPDIR="$out/tmp" "$ergon" dvfs-study -w resnet18 --format json -q > ../study_print.json)
[ -z "$(find "$out/cwd" "$out/tmp" -mindepth 1)" ]
python3 - "$out/study_print.json" "$out/study/study.csv" "$out/study/averages.csv" <<'PY'
import csv, json, sys
printed = json.load(open(sys.argv[1]))
assert printed["fidelity"] == "tlm" and printed["batch"] is None and printed["workloads"] == ["resnet18"], printed
for key, path in (("runs", sys.argv[2]), ("averages", sys.argv[3])):
    rows = list(csv.DictReader(open(path)))
    assert len(printed[key]) == len(rows), key
    for shown, row in zip(printed[key], rows):
        for column, text in row.items():
            value = shown[column]
            assert (value == text) if isinstance(value, str) else (float(text) == value), (key, column, text, value)
PY
# --batch reaches every run: the study's race to idle is `ergon dvfs --batch`'s, and a batch of 4 takes longer.
"$ergon" dvfs-study -w resnet18 --batch 4 --format json -q > "$out/study_b4.json"
"$ergon" dvfs -c edge_tpu --set dram.preset=lpddr5 -w resnet18 --batch 4 --format json -q > "$out/dvfs_b4.json"
python3 - "$out/study_b4.json" "$out/study_print.json" "$out/dvfs_b4.json" <<'PY'
import json, sys
batched, single, dvfs = (json.load(open(p)) for p in sys.argv[1:4])
assert batched["batch"] == 4
def rti(study):
    return next(r["rti_latency_ns"] for r in study["runs"]
                if (r["accelerator"], r["dram"], r["scheme"]) == ("edge_tpu", "lpddr5", "rti"))
assert rti(batched) == dvfs["total"]["rti_latency_ns"], (rti(batched), dvfs["total"]["rti_latency_ns"])
assert rti(batched) > 2 * rti(single), (rti(batched), rti(single))
PY
# --fidelity cycle: race to idle and the schedule both cycle by cycle; race to idle is `ergon run`'s.
"$ergon" dvfs -c edge_tpu -w resnet8 --fidelity cycle --scheme ideal --format json -q > "$out/dvfs_cycle.json"
"$ergon" run -c edge_tpu -w resnet8 --fidelity cycle --format json -q > "$out/run_cycle.json"
python3 - "$out/dvfs_cycle.json" "$out/run_cycle.json" <<'PY'
import json, sys
dvfs, run = (json.load(open(p)) for p in sys.argv[1:3])
assert dvfs["fidelity"] == "cycle" and run["fidelity"] == "cycle", (dvfs["fidelity"], run["fidelity"])
assert dvfs["total"]["rti_latency_ns"] == run["total"]["time_ns"], (dvfs["total"], run["total"]["time_ns"])
PY
# SCALE-Sim's traffic model with SCALE-Sim's MobileNet topology: every row says so, and one of its
# assumptions undone with --set changes the traffic (the dense depthwise layers' im2col streams).
"$ergon" dvfs-study --workload mobilenet_v1 --traffic-model scalesim --jobs 2 --out "$out/scalesim" > /dev/null 2>&1
[ "$(tail -n +2 "$out/scalesim/averages.csv" | wc -l)" -eq 44 ]
[ "$(tail -n +2 "$out/scalesim/study.csv" | cut -d, -f13 | sort -u)" = "scalesim" ]
"$ergon" dvfs-study --workload mobilenet_v1 --traffic-model scalesim --set glb.operand_fetch=tensors --jobs 2 \
  --out "$out/scalesim_tensors" > /dev/null 2>&1
if cmp -s "$out/scalesim/study.csv" "$out/scalesim_tensors/study.csv"; then exit 1; fi
if "$ergon" dvfs-study --workload resnet18 --traffic-model scalesim --set glb.prefetch=early --out "$out/bad" \
  2> "$out/bad.txt"; then exit 1; fi
grep -q "glb.prefetch" "$out/bad.txt"
[ ! -e "$out/bad" ]
"$ergon" dvfs --config "$source_dir/configs/hpc_tpu.yaml" --set dram.preset=ddr5-4800 \
  --workload "$source_dir/workloads/mobilenet_v1.yaml" --scheme ideal --trace vcd --out "$out/again" > /dev/null
for file in report.json layers.csv activity.csv trace.vcd; do cmp "$out/dvfs/$file" "$out/again/$file"; done
# With the bank-level DRAM, report.json carries the row-buffer outcomes and DRAM energy by kind.
"$ergon" dvfs --config "$source_dir/configs/hpc_tpu.yaml" --set dram.impl=banked --set dram.preset=ddr5-4800 \
  --workload "$source_dir/workloads/mobilenet_v1.yaml" --scheme vf-oh-q --out "$out/banked" > /dev/null
python3 - "$out/banked/report.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
total = report["total"]
assert report["config"]["dram_impl"] == "banked"
assert total["dram_row_hits"] > total["dram_row_misses"] > 0, total
kinds = total["dram_energy_pj"]
assert set(kinds) == {"activate", "read", "write", "refresh", "background", "total"}, kinds
assert abs(sum(v for k, v in kinds.items() if k != "total") - kinds["total"]) < 1e-6 * kinds["total"]
layers = [l for l in report["layers"] if l["executed"] and "dram_row_hits" in l]
assert layers and sum(l["dram_row_hits"] for l in layers) == total["dram_row_hits"]
PY
# A deadline 30 % beyond race to idle is met and saves more; --pareto writes the front; a deadline race
# to idle cannot meet fails with a message naming the option.
"$ergon" dvfs --config "$source_dir/configs/hpc_tpu.yaml" --workload "$source_dir/workloads/resnet18.yaml" \
  --scheme vf-oh-q --out "$out/iso" > /dev/null
rti_ms=$(python3 -c "import json; print(json.load(open('$out/iso/report.json'))['total']['rti_latency_ns'] / 1e6)")
deadline_ms=$(python3 -c "print($rti_ms * 1.3)")
"$ergon" dvfs --config "$source_dir/configs/hpc_tpu.yaml" --workload "$source_dir/workloads/resnet18.yaml" \
  --scheme vf-oh-q --deadline-ms "$deadline_ms" --pareto --out "$out/deadline" > /dev/null
python3 - "$out/iso/report.json" "$out/deadline/report.json" "$out/deadline/pareto.csv" "$deadline_ms" <<'PY'
import csv, json, sys
iso, deadline = (json.load(open(p))["total"] for p in sys.argv[1:3])
assert deadline["latency_kept"] and deadline["latency_ns"] <= float(sys.argv[4]) * 1e6, deadline
assert deadline["energy_saving_pct"] > iso["energy_saving_pct"], (iso, deadline)
rows = list(csv.DictReader(open(sys.argv[3])))
assert len(rows) == 19 and {r["scheme"] for r in rows} == {"rti", "ideal", "vf-oh", "vf-oh-q"}, rows
front = [r for r in rows if r["on_front"] == "1"]
assert front and all(r["latency_kept"] == "1" for r in rows)
PY
[ -s "$out/deadline/pareto.gp" ]
check_plots "$out/deadline"
if "$ergon" dvfs --config "$source_dir/configs/hpc_tpu.yaml" --workload "$source_dir/workloads/resnet18.yaml" \
  --deadline-ms 0.001 --out "$out/impossible" 2> "$out/impossible.err"; then exit 1; fi
grep -q "deadline-ms 0.001 is shorter than race to idle's latency" "$out/impossible.err"
echo "dvfs checks passed"
