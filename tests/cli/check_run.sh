#!/usr/bin/env bash
# `ergon run` on AlexNet writes report.json, layers.csv and activity.csv and prints a table with totals.
set -euo pipefail
ergon="$1"
source_dir="$2"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$ergon" run --config "$source_dir/configs/eyeriss.yaml" --workload "$source_dir/workloads/alexnet.yaml" \
  --batch 4 --out "$out/run" > "$out/stdout.txt"
grep -q "^total " "$out/stdout.txt"
grep -q '"schema_version": 5' "$out/run/report.json"
grep -q '"stall_cycles"' "$out/run/report.json"
[ "$(head -1 "$out/run/layers.csv" | cut -d, -f1)" = "layer" ]
[ "$(wc -l < "$out/run/activity.csv")" -gt 100 ]
if ls "$out/run" | grep -q tmp; then echo "temporary file left behind" >&2; exit 1; fi
# Same inputs, byte-identical outputs.
"$ergon" run --config "$source_dir/configs/eyeriss.yaml" --workload "$source_dir/workloads/alexnet.yaml" \
  --batch 4 --out "$out/again" > /dev/null
for file in report.json layers.csv activity.csv; do cmp "$out/run/$file" "$out/again/$file"; done
# Traces: a VCD with increasing timestamps, and a Chrome/Perfetto JSON timeline that parses.
"$ergon" run --config "$source_dir/configs/eyeriss.yaml" --workload "$source_dir/workloads/resnet18.yaml" \
  --fidelity cycle --trace vcd --trace perfetto --out "$out/traced" > /dev/null
grep -q '^\$enddefinitions \$end' "$out/traced/trace.vcd"
awk '/^#/ { t = substr($0, 2) + 0; if (t < last) { print "time goes back at " t; exit 1 } last = t }' \
  "$out/traced/trace.vcd"
python3 -c 'import json, sys; events = json.load(open(sys.argv[1]))["traceEvents"]; assert len(events) > 100' \
  "$out/traced/trace.json"
# Activations kept on chip: each layer's span gives the bytes report.json gives.
"$ergon" run --config "$source_dir/configs/edge_tpu.yaml" --workload "$source_dir/workloads/resnet8.yaml" \
  --set glb.keep_activations=when_fits --trace perfetto --out "$out/kept" > /dev/null
python3 - "$out/kept" <<'PY'
import json, sys
report = json.load(open(sys.argv[1] + "/report.json"))
spans = {e["name"]: e["args"] for e in json.load(open(sys.argv[1] + "/trace.json"))["traceEvents"] if e.get("tid") == 1 and e.get("ph") == "X"}
kept = 0
for layer in report["layers"]:
    if not layer["executed"]:
        continue
    on_chip = layer["activations_on_chip"]
    args = spans[layer["name"]]
    assert args.get("input_bytes_found_on_chip", 0) == on_chip["input_bytes_found"], layer["name"]
    assert args.get("output_bytes_kept_on_chip", 0) == on_chip["output_bytes_kept"], layer["name"]
    kept += on_chip["output_bytes_kept"]
assert kept == report["total"]["activations_on_chip"]["output_bytes_kept"] > 0
PY
echo "run ok"
