#!/usr/bin/env bash
# `ergon profile blackthorn` (ranges shrunk) writes models and its checks; `ergon estimate blackthorn`
# sums the layer models of a network, and reads the models back identically.
set -euo pipefail
ergon="$(realpath "$1")"
source_dir="$(realpath "$2")"
source "$(dirname "$0")/plot_checks.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$ergon" profile blackthorn --config "$source_dir/configs/edge_tpu.yaml" --scale 0.1 --random-layers 50 --jobs 2 \
  --sweeps 2 --out "$out/models" > "$out/summary.txt"
grep -q "random conv layers: RMSPE" "$out/summary.txt"
grep -q "2 full 1-D sweeps" "$out/summary.txt"
# One worker or two: the same models, report and plot data, byte for byte.
"$ergon" profile blackthorn --config "$source_dir/configs/edge_tpu.yaml" --scale 0.1 --random-layers 50 --jobs 1 \
  --sweeps 2 --out "$out/serial" > /dev/null
for file in models.json report.json fitter_sweeps.csv random_layers.csv network_layers.csv; do
  cmp "$out/models/$file" "$out/serial/$file"
done
check_plots "$out/models"
python3 - "$out/models/report.json" "$out/models/models.json" <<'PY'
import json, sys
report, models = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert report["measurements"] == sum(m["measurements"] for m in models["models"]) > 0
assert report["random_conv_layers"]["layers"] == 50
assert {n["name"] for n in report["networks"]} == {"alexnet", "vgg16", "resnet50", "mobilenet_v2"}
assert all(n["simulated_ms"] > 0 and n["estimated_ms"] > 0 for n in report["networks"])
assert {m["kind"] for m in models["models"]} == {"conv", "depthwise", "fc", "maxpool", "avgpool", "add",
                                             "global_avgpool"}
PY
"$ergon" estimate blackthorn --models "$out/models" --workload "$source_dir/workloads/vgg16.yaml" --format json \
  > "$out/vgg16.json"
python3 - "$out/vgg16.json" "$out/models/report.json" <<'PY'
import json, sys
estimate, report = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
total = sum(l["latency_ms"] for l in estimate["layers"])
assert abs(total - estimate["total_latency_ms"]) <= 1e-9 * total
vgg = [n for n in report["networks"] if n["name"] == "vgg16"][0]
assert abs(vgg["estimated_ms"] - estimate["total_latency_ms"]) <= 1e-6 * total, (vgg, estimate["total_latency_ms"])
PY
if "$ergon" estimate blackthorn --models "$out" --workload "$source_dir/workloads/vgg16.yaml" 2> "$out/err.txt"; then
  exit 1
fi
grep -q "run .ergon profile blackthorn" "$out/err.txt"

# From measurements: an empty file asks for each sub-model's first layer; the file must stay untouched.
mkdir "$out/board"
echo "kind,kernel,stride,filters,channels,width,height,inputs,outputs,padding,latency_ms" > "$out/board/measured.csv"
cp "$out/board/measured.csv" "$out/measured.orig"
"$ergon" profile blackthorn --measurements "$out/board/measured.csv" --scale 0.1 --out "$out/board" > "$out/board.txt"
grep -q "18 sub-models need more measurements" "$out/board.txt"
test "$(wc -l < "$out/board/requests.csv")" -eq 19
cmp "$out/board/measured.csv" "$out/measured.orig"
# Measured latencies for the requests: the next round asks for the next layers, not the same ones.
python3 - "$out/board/requests.csv" >> "$out/board/measured.csv" <<'PY'
import csv, sys
for row in csv.DictReader(open(sys.argv[1])):
    row["latency_ms"] = "1.5"
    print(",".join(row.values()))
PY
cp "$out/board/requests.csv" "$out/requests.first"
"$ergon" profile blackthorn --measurements "$out/board/measured.csv" --scale 0.1 --out "$out/board" > /dev/null
if cmp -s "$out/board/requests.csv" "$out/requests.first"; then exit 1; fi
# The measurements may not sit where the profile writes, nor come with a config.
cp "$out/board/measured.csv" "$out/board/requests.csv"
if "$ergon" profile blackthorn --measurements "$out/board/requests.csv" --out "$out/board" 2> "$out/err.txt"; then
  exit 1
fi
grep -q "would write requests.csv over the measurements" "$out/err.txt"
if "$ergon" profile blackthorn --measurements "$out/measured.orig" --config "$source_dir/configs/edge_tpu.yaml" \
  --out "$out/x" 2> "$out/err.txt"; then
  exit 1
fi
grep -q "excludes" "$out/err.txt"
echo "blackthorn checks passed"
