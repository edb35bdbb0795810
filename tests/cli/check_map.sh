#!/usr/bin/env bash
# `ergon map` shows the mapping `ergon run` simulates; a mapping file pins parameters in both; an impossible
# pin fails with its location and no output folder.
set -euo pipefail
ergon="$1"
source_dir="$2"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
config="$source_dir/configs/eyeriss.yaml"
workload="$source_dir/workloads/alexnet.yaml"
"$ergon" map --config "$config" --workload "$workload" --batch 4 --layer conv3 > "$out/map.txt"
grep -q "for filter_col_fold in" "$out/map.txt"
grep -q "candidates by energy" "$out/map.txt"
"$ergon" map --config "$config" --workload "$workload" --batch 4 --format json > "$out/map.json"
cat > "$out/pins.yaml" <<'PINS'
layers:
  conv3: {ofmap_rows: 13, loop_order: [images, filters, ofmap_rows, channels], glb_slots: {ifmap: 1, psum: 1},
          double_buffered: false}
PINS
"$ergon" map --config "$config" --workload "$workload" --batch 4 --format json --mapping "$out/pins.yaml" \
  > "$out/pinned.json"
# --out DIR keeps the JSON and the CSV (a row per layer); stdout shows --format.
"$ergon" map --config "$config" --workload "$workload" --batch 4 --format csv --out "$out/map_dir" > "$out/map.csv"
cmp "$out/map.csv" "$out/map_dir/mapping.csv"
python3 -c 'import json, sys; assert json.load(open(sys.argv[1])) == json.load(open(sys.argv[2]))' \
  "$out/map.json" "$out/map_dir/mapping.json"
head -1 "$out/map.csv" | grep -q "^layer,op,executed,"
"$ergon" run --config "$config" --workload "$workload" --batch 4 --mapping "$out/pins.yaml" --out "$out/run" \
  > /dev/null
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
mapped = {l["name"]: l for l in json.load(open(out + "/map.json"))["layers"]}
pinned = {l["name"]: l for l in json.load(open(out + "/pinned.json"))["layers"]}
report = {l["name"]: l for l in json.load(open(out + "/run/report.json"))["layers"]}
conv3 = pinned["conv3"]["mapping"]
assert conv3["ofmap_rows"] == 13 and not conv3["double_buffered"], conv3
assert conv3["loop_order"] == ["images", "filters", "ofmap_rows", "channels"], conv3
assert conv3["glb_slots"]["ifmap"] == 1 and conv3["glb_slots"]["psum"] == 1, conv3
assert mapped["conv3"]["mapping"] != conv3, "the pins should change conv3's mapping"
assert mapped["conv3"]["search"]["candidates"] > pinned["conv3"]["search"]["candidates"] >= 1
assert len(mapped["conv3"]["loop_nest"]) == 9, mapped["conv3"]["loop_nest"]
# The run simulates what `map` shows: pinned conv3, and the mapper's choice elsewhere.
for name, layer in report.items():
    if "mapping" not in layer:
        continue
    shown = pinned[name]
    expected = dict(shown["mapping"], search=shown["search"]) if "search" in shown else shown["mapping"]
    assert layer["mapping"] == expected, (name, layer["mapping"], expected)
PY
cat > "$out/bad.yaml" <<'PINS'
layers:
  conv3: {ofmap_rows: 500}
PINS
if "$ergon" run --config "$config" --workload "$workload" --mapping "$out/bad.yaml" --out "$out/bad" \
  2> "$out/err.txt"; then
  echo "an impossible pin was accepted" >&2
  exit 1
fi
grep -q "bad.yaml:2:10: layers.conv3" "$out/err.txt"
if [ -e "$out/bad" ]; then echo "a failed run left its output folder" >&2; exit 1; fi
# The output never replaces an input.
mkdir "$out/held"
cp "$out/pins.yaml" "$out/held/mapping.json"
cp "$out/pins.yaml" "$out/pins_kept.yaml"
if "$ergon" map --config "$config" --workload "$workload" --mapping "$out/held/mapping.json" --out "$out/held" \
  2> "$out/err2.txt"; then
  echo "map wrote over its mapping file" >&2
  exit 1
fi
grep -q "the output mapping.json would replace the input" "$out/err2.txt"
cmp "$out/held/mapping.json" "$out/pins_kept.yaml"
echo "map checks passed"
