#!/usr/bin/env bash
# `ergon profile blackthorn` (ranges shrunk) writes models and its checks; `ergon estimate blackthorn`
# sums the layer models of a network, and reads the models back identically.
set -euo pipefail
ergon="$(realpath "$1")"
source_dir="$(realpath "$2")"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$ergon" profile blackthorn --config "$source_dir/configs/edge_tpu.yaml" --scale 0.1 --random-layers 50 --jobs 2 \
  --out "$out/models" > "$out/summary.txt"
grep -q "random conv layers: RMSPE" "$out/summary.txt"
# One worker or two: the same models and report, byte for byte.
"$ergon" profile blackthorn --config "$source_dir/configs/edge_tpu.yaml" --scale 0.1 --random-layers 50 --jobs 1 \
  --out "$out/serial" > /dev/null
for file in models.json report.json; do cmp "$out/models/$file" "$out/serial/$file"; done
python3 - "$out/models/report.json" "$out/models/models.json" <<'PY'
import json, sys
report, models = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert report["measurements"] == sum(m["measurements"] for m in models["models"]) > 0
assert report["random_conv_layers"]["layers"] == 50
assert {n["name"] for n in report["networks"]} == {"alexnet", "vgg16", "resnet50", "mobilenet_v2"}
assert all(n["simulated_ms"] > 0 and n["estimated_ms"] > 0 for n in report["networks"])
assert {m["kind"] for m in models["models"]} == {"conv", "depthwise", "fc", "maxpool", "avgpool"}
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
echo "blackthorn checks passed"
