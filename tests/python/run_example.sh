#!/usr/bin/env bash
# Runs one examples/ script into a fresh folder and checks it wrote its plot and its table.
#   run_example.sh PYTHON SCRIPT PLOT_NAME [ARGS...]
set -euo pipefail
python="$1"
script="$2"
plot="$3"
shift 3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$python" "$script" --out "$out/run" "$@"
[ -s "$out/run/$plot" ]
[ "$(head -c 4 "$out/run/$plot" | tail -c 3)" = "PNG" ]  # the PNG signature
ls "$out/run" | grep -q "\.csv$"
echo "example checks passed"
