#!/usr/bin/env bash
# `fit lahmer` and `profile blackthorn` in the shared grammar (docs/cli.md, "Grammar", "`--out` is always a
# folder"): printed without --out, --format json is the fit.json / report.json --out writes and nothing is
# written; --batch reaches the simulations (their figures against `ergon run` of the same layers); --batch and
# --fidelity with --measurements, and an empty --out, are usage errors.
set -euo pipefail
export LC_ALL=C  # the file listing's order below
ergon="$(realpath "$1")"
source_dir="$(realpath "$2")"
work=$(mktemp -d)
scratch=$(mktemp -d)  # the print-only runs' temporary folder: empty again after them
trap 'rm -rf "$work" "$scratch"' EXIT
cd "$work"  # a print-only run must leave nothing here either

# Prints stdout of a print-only run; fails when it wrote anything (a note, or a file in $TMPDIR).
print_only() {
  TMPDIR="$scratch" "$ergon" "$@" 2> "$work/print_only.err"
  if grep -q "note: wrote" "$work/print_only.err"; then echo "a print-only run says it wrote files: $*" >&2; exit 1; fi
  if [ -n "$(ls -A "$scratch")" ]; then echo "a print-only run left $(ls -A "$scratch"): $*" >&2; exit 1; fi
  rm "$work/print_only.err"
}
# Exits 2 with a message naming `option`.
usage_error() {
  local option="$1"; shift
  local status=0
  "$ergon" "$@" > /dev/null 2> "$work/usage.err" || status=$?
  if [ "$status" -ne 2 ] || ! grep -q -- "$option" "$work/usage.err"; then
    echo "expected a usage error naming $option (exit 2), got $status: $*" >&2
    cat "$work/usage.err" >&2
    exit 1
  fi
}

# fit lahmer, simulated: the printed JSON and CSV are the files; --batch 2 gives the per-image energy `run`
# simulates for the batch, halved.
lahmer=(fit lahmer -c edge_tpu -j 2 -q)
"$ergon" "${lahmer[@]}" --out "$work/lahmer" > /dev/null
print_only "${lahmer[@]}" --format json > "$work/lahmer.json"
cmp "$work/lahmer/fit.json" "$work/lahmer.json"
print_only "${lahmer[@]}" --batch 2 --format csv > "$work/lahmer_batch2.csv"
cat > "$work/layer.yaml" <<'YAML'
name: single_conv
source: the base layer of fit lahmer's sweeps (studies/lahmer/lahmer_fit_run.cpp)
layers:
  - {name: input, op: input, shape: [64, 56, 56]}
  - {name: layer, op: conv, inputs: [input], filters: 32, kernel: 3, stride: 1, padding: 0}
YAML
for batch in 1 2; do
  "$ergon" run -c edge_tpu -w "$work/layer.yaml" --batch "$batch" --format json > "$work/run_batch$batch.json"
done
python3 - "$work/lahmer/samples.csv" "$work/lahmer_batch2.csv" "$work/run_batch1.json" "$work/run_batch2.json" \
  "$work/lahmer/fit.json" <<'PY'
import csv, json, sys
def base_energy_j(path):  # the base layer: ifm 64, 56x56, 3x3, stride 1, 32 output maps
    rows = [r for r in csv.DictReader(open(path)) if r["sweep"] == "ksize" and r["ksize"] == "3" and r["ofm"] == "32"]
    assert len(rows) == 1, rows
    return float(rows[0]["energy_j"])
def run_energy_j(path):  # the layer's energy for the whole batch, as `ergon run` reports it
    layer = json.load(open(path))["layers"][1]
    return layer["energy_pj"]["total"] * 1e-12, layer["batch"]
fit1, fit2 = base_energy_j(sys.argv[1]), base_energy_j(sys.argv[2])
(run1, b1), (run2, b2) = run_energy_j(sys.argv[3]), run_energy_j(sys.argv[4])
assert (b1, b2) == (1, 2)
assert abs(fit1 - run1) <= 1e-9 * run1, (fit1, run1)
assert abs(fit2 - run2 / 2) <= 1e-9 * run2, ("per image at batch 2", fit2, run2)
# Two images cost more than one and at most two: per image, between half and all of one image's energy.
assert run1 < run2 <= 2 * run1, (run1, run2)
assert fit2 < fit1, ("batch 2 shares the weights fetched, so an image costs less", fit1, fit2)
assert json.load(open(sys.argv[5]))["batch"] == 1 and json.load(open(sys.argv[5]))["fidelity"] == "tlm"
PY

# fit lahmer --measurements: JSON and CSV as written; --batch and --fidelity are usage errors with it.
csv="$source_dir/tests/data/lahmer/synthetic_measurements.csv"
"$ergon" fit lahmer -m "$csv" -b nx --out "$work/measured" > /dev/null 2> "$work/measured.err"
grep -q "use: ergon estimate lahmer --parameters $work/measured/parameters.yaml" "$work/measured.err"
print_only fit lahmer -m "$csv" -b nx --format json | cmp - "$work/measured/fit.json"
print_only fit lahmer -m "$csv" -b nx --format csv | cmp - "$work/measured/residuals.csv"
print_only fit lahmer -m "$csv" -b nx --format markdown | grep -q "^| conv (eq. 7) |"
usage_error "--batch" fit lahmer -m "$csv" --batch 2
usage_error "--fidelity" fit lahmer -m "$csv" --fidelity cycle
usage_error "--out is empty" fit lahmer -m "$csv" --out ""

# profile blackthorn (ranges shrunk): at batch 2 with --out and printed; at batch 1 printed as CSV.
profile=(profile blackthorn -c edge_tpu --scale 0.05 --random-layers 2 --sweeps 0 -j 2 -q)
"$ergon" "${profile[@]}" --batch 2 --out "$work/bt2" > /dev/null
print_only "${profile[@]}" --batch 2 --format json > "$work/bt2.json"
cmp "$work/bt2/report.json" "$work/bt2.json"
print_only "${profile[@]}" --format csv > "$work/bt1.csv"
"$ergon" run -c edge_tpu -w vgg16 --batch 2 --format csv > "$work/vgg16_batch2.csv"
"$ergon" estimate blackthorn --models "$work/bt2" -w vgg16 --format json > "$work/vgg16_estimate.json"
# Models profiled at batch 2 say so when the workload runs at another batch.
"$ergon" estimate blackthorn --models "$work/bt2" -w vgg16 | grep -q "per image at batch 2, but .* runs at batch 1"
python3 - "$work/bt2/network_layers.csv" "$work/bt1.csv" "$work/vgg16_batch2.csv" "$work/bt2/report.json" \
  "$work/bt2/models.json" "$work/vgg16_estimate.json" <<'PY'
import csv, json, sys
def vgg16(path):
    return {r["layer"]: r for r in csv.DictReader(open(path)) if r["network"] == "vgg16"}
batch2, batch1 = vgg16(sys.argv[1]), vgg16(sys.argv[2])
run = {r["layer"]: float(r["time_ns"]) / 1e6 for r in csv.DictReader(open(sys.argv[3]))}
convs = [name for name, r in batch2.items() if r["op"] == "conv"]
assert len(convs) == 13, convs
for name in convs:  # the network's figures are for the batch: exactly what `run --batch 2` simulates
    one, two = float(batch1[name]["simulated_ms"]), float(batch2[name]["simulated_ms"])
    assert abs(two - run[name]) <= 1e-9 * run[name], (name, two, run[name])
    assert one < two <= 2 * one, ("two images take longer than one, and at most twice", name, one, two)
report, models = json.load(open(sys.argv[4])), json.load(open(sys.argv[5]))
assert (report["batch"], report["fidelity"], models["batch"], models["fidelity"]) == (2, "tlm", 2, "tlm")
assert "at batch 2, latency per image" in models["backend"], models["backend"]
# The models are per image: a batch-1 workload's estimate is half the batch-2 network's.
vgg = [n for n in report["networks"] if n["name"] == "vgg16"][0]
estimate = json.load(open(sys.argv[6]))["total_latency_ms"]
assert abs(2 * estimate - vgg["estimated_ms"]) <= 1e-9 * vgg["estimated_ms"], (estimate, vgg["estimated_ms"])
PY

# profile blackthorn --measurements: printed as written; --batch and --fidelity are usage errors with it.
echo "kind,kernel,stride,filters,channels,width,height,inputs,outputs,padding,latency_ms" > "$work/board.csv"
"$ergon" profile blackthorn --measurements "$work/board.csv" --scale 0.05 --out "$work/board" > /dev/null
print_only profile blackthorn --measurements "$work/board.csv" --scale 0.05 --format json | cmp - "$work/board/report.json"
print_only profile blackthorn --measurements "$work/board.csv" --scale 0.05 --format csv | cmp - "$work/board/requests.csv"
usage_error "--batch" profile blackthorn --measurements "$work/board.csv" --batch 2
usage_error "--fidelity" profile blackthorn --measurements "$work/board.csv" --fidelity cycle
usage_error "--out is empty" profile blackthorn --measurements "$work/board.csv" --out ""

# Nothing but what the runs above were told to write.
left=$(find "$work" -mindepth 1 -maxdepth 1 -printf '%f\n' | sort | tr '\n' ' ')
expected="board board.csv bt1.csv bt2 bt2.json lahmer lahmer.json lahmer_batch2.csv layer.yaml measured measured.err "
expected+="run_batch1.json run_batch2.json usage.err vgg16_batch2.csv vgg16_estimate.json "
if [ "$left" != "$expected" ]; then echo "unexpected files: $left" >&2; exit 1; fi
echo "study grammar checks passed"
