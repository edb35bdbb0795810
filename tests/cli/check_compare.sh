#!/usr/bin/env bash
# `ergon compare`: the comparison report in every format, with simulations of two configs, CNNergy,
# Lahmer's two boards, the roofline bound of each config and the published Jetson measurements for a network Blackthorn measured.
set -euo pipefail
ergon="$(realpath "$1")"
source_dir="$(realpath "$2")"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
args=(compare --workload "$source_dir/workloads/alexnet.yaml" --config "$source_dir/configs/eyeriss.yaml"
  --config "$source_dir/configs/edge_tpu.yaml")
"$ergon" "${args[@]}" --format json --out "$out/files" > "$out/report.json"
# --out DIR holds the report's JSON (as printed) and CSV.
cmp "$out/report.json" "$out/files/comparison.json"
[ -s "$out/files/comparison.csv" ]
python3 - "$out/report.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
names = [s["name"] for s in report["sources"]]
assert names == ["sim eyeriss", "sim edge_tpu", "CNNergy", "Lahmer TX2", "Lahmer Xavier NX", "roofline eyeriss",
                 "roofline edge_tpu", "measured jetson-nano", "measured jetson-tx2"], names
by = {s["name"]: s for s in report["sources"]}
assert by["measured jetson-tx2"]["latency_ms"] == 11.22          # Blackthorn Table 3
for name in ("sim eyeriss", "sim edge_tpu", "CNNergy"):
    s = by[name]
    assert abs(s["edp_mj_ms"] - s["energy_mj"] * s["latency_ms"]) < 1e-9 * s["edp_mj_ms"]
    assert abs(sum(l["energy_mj"] for l in s["layers"] if l["energy_mj"]) - s["energy_mj"]) < 1e-6 * s["energy_mj"]
assert "PARTIAL" in by["Lahmer TX2"]["detail"]
# No simulated layer beats its roofline bound, per image, and the bound covers every layer the simulation runs.
for config in ("eyeriss", "edge_tpu"):
    simulated = {l["name"]: l["latency_ms"] for l in by["sim " + config]["layers"] if l["latency_ms"] is not None}
    bound = {l["name"]: l["latency_ms"] for l in by["roofline " + config]["layers"] if l["latency_ms"] is not None}
    assert set(bound) == set(simulated), (sorted(bound), sorted(simulated))
    assert all(bound[n] <= simulated[n] * (1 + 1e-9) for n in bound), [(n, bound[n], simulated[n]) for n in bound]
    assert by["roofline " + config]["latency_ms"] <= by["sim " + config]["latency_ms"]
PY
"$ergon" "${args[@]}" --format markdown > "$out/report.md"
grep -q "^| sim edge_tpu | " "$out/report.md"
"$ergon" "${args[@]}" --format csv > "$out/report.csv"
cmp "$out/report.csv" "$out/files/comparison.csv"
grep -q '^total,"CNNergy",' "$out/report.csv"
"$ergon" "${args[@]}" > "$out/report.txt"
grep -q "transaction-level simulation vs CNNergy estimate" "$out/report.txt"
# --batch 4 reaches the simulations and the estimates alike: each simulation is `ergon run --batch 4`'s per
# image, and still no simulated layer beats its roofline bound.
"$ergon" "${args[@]}" --batch 4 --format json > "$out/batch4.json"
"$ergon" run --workload "$source_dir/workloads/alexnet.yaml" --config "$source_dir/configs/edge_tpu.yaml" --batch 4 \
  --format json -q > "$out/run4.json"
python3 - "$out/batch4.json" "$out/report.json" "$out/run4.json" <<'PY'
import json, sys
batched, single, run = (json.load(open(p)) for p in sys.argv[1:4])
by = {s["name"]: s for s in batched["sources"]}
sim = by["sim edge_tpu"]
assert abs(sim["latency_ms"] - run["total"]["time_ns"] / 4 / 1e6) < 1e-9 * sim["latency_ms"], (sim, run["total"])
single_sim = {s["name"]: s for s in single["sources"]}["sim edge_tpu"]
assert sim["energy_mj"] < single_sim["energy_mj"], "the weights are fetched once per batch"
for config in ("eyeriss", "edge_tpu"):
    simulated = {l["name"]: l["latency_ms"] for l in by["sim " + config]["layers"] if l["latency_ms"] is not None}
    bound = {l["name"]: l["latency_ms"] for l in by["roofline " + config]["layers"] if l["latency_ms"] is not None}
    assert all(bound[n] <= simulated[n] * (1 + 1e-9) for n in bound), [(n, bound[n], simulated[n]) for n in bound]
PY
echo "compare checks passed"
