#!/usr/bin/env bash
# `ergon partition` (NeuPart): the simulated client computes with the sparsities the transmission sizes; the
# RLC word width is checked; reports name the optimal cut the paper's way too; --out writes the figures.
set -euo pipefail
ergon="$(realpath "$1")"
source_dir="$(realpath "$2")"
source "$(dirname "$0")/plot_checks.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cat > "$out/block.yaml" <<'YAML'
name: block
source: test
layers:
  - {name: image, op: input, shape: [3, 32, 32]}
  - {name: stem, op: conv, inputs: [image], filters: 16, kernel: 3, padding: 1}
  - {name: branch, op: conv, inputs: [stem], filters: 16, kernel: 3, padding: 1}
  - {name: join, op: add, inputs: [stem, branch]}
  - {name: head, op: conv, inputs: [join], filters: 16, kernel: 3, padding: 1}
YAML
# FISC client energy (mJ) of the simulated client at a given tensor sparsity (no table: --default-sparsity).
fisc_mj() {
  "$ergon" partition --config "$source_dir/configs/eyeriss.yaml" --workload "$out/block.yaml" --energy sim \
    --default-sparsity "$1" | awk '/^fully on the client/ {print $(NF-2)}'
}
dense=$(fisc_mj 0)
sparse=$(fisc_mj 0.6)
echo "FISC client energy: dense $dense mJ, 60% zeros $sparse mJ"
awk -v d="$dense" -v s="$sparse" 'BEGIN { exit !(s > 0 && s < d) }'

# A word width with no room for a run field in a 64-bit RLC word is refused, naming the options.
if "$ergon" partition --workload "$out/block.yaml" --energy cnnergy --tx-word-bits 60 2> "$out/err.txt"; then
  echo "a 60-bit transmitted word was accepted" >&2
  exit 1
fi
grep -q -- "--tx-word-bits 60 with --rlc-run-bits 5: .*does not fit a 64-bit RLC word" "$out/err.txt"
"$ergon" partition --workload "$out/block.yaml" --energy cnnergy --tx-word-bits 32 | grep -q "RLC: 32-bit values, 5-bit runs, 1 pairs per 64-bit word, alpha = 1.0000"

# AlexNet with CNNergy's energies: the optimum named both ways, the quartile savings, the figures.
"$ergon" partition --workload "$source_dir/workloads/alexnet.yaml" --set pe_array.word_bits=8 --energy cnnergy \
  --out "$out/alexnet" > "$out/alexnet.txt"
grep -q "^optimal: after pool[0-9] (paper: P[0-9])" "$out/alexnet.txt"
[ "$(grep -c "^  Sparsity-In .*against FCC" "$out/alexnet.txt")" -eq 3 ]
grep -q "^  any Sparsity-In: .*against FISC" "$out/alexnet.txt"
for figure in energy_by_cut savings_vs_bitrate energy_vs_bitrate delay_vs_bitrate savings_map; do
  [ -s "$out/alexnet/$figure.csv" ] && [ -s "$out/alexnet/$figure.gp" ]
  if command -v gnuplot > /dev/null; then [ -s "$out/alexnet/$figure.png" ] && [ -s "$out/alexnet/$figure.svg" ]; fi
done
check_plots "$out/alexnet"
python3 - "$out/alexnet/partition.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["schema_version"] == 2 and r["rlc_run_bits"] == 4 and abs(r["rlc_overhead_alpha"] - 0.6) < 1e-12, r
assert [q["input_sparsity"] for q in r["sparsity_in_quartiles"]] == [0.5199, 0.608, 0.6909]
assert len({round(q["saving_vs_client_pct"], 9) for q in r["sparsity_in_quartiles"]}) == 1  # FISC: any S-In
assert r["cuts"][r["best_cut"]]["paper_name"].startswith("P")
PY
echo "partition checks passed"
