#!/usr/bin/env bash
# Shipped parts by name from any folder, print-only runs and suggestions (docs/cli.md, "Shipped parts by
# name", "`--out` is always a folder", "Grammar").
set -euo pipefail
ergon="$1"
work=$(mktemp -d)
scratch=$(mktemp -d)  # the print-only runs' temporary folder: empty again after them
trap 'rm -rf "$work" "$scratch"' EXIT
cd "$work"  # not the source tree: names resolve through the data folder

# A run with --out, by names; then the same run without --out prints report.json and writes nothing.
"$ergon" run -c edge_tpu -w resnet8 --batch 2 --out "$work/saved" > /dev/null 2> "$work/saved.err"
TMPDIR="$scratch" "$ergon" run -c edge_tpu -w resnet8 --batch 2 --format json > "$work/printed.json" \
  2> "$work/printed.err"
cmp "$work/saved/report.json" "$work/printed.json"
if grep -q "note: wrote" "$work/printed.err"; then echo "a print-only run says it wrote files" >&2; exit 1; fi
if [ "$(find "$work" -mindepth 1 -maxdepth 1 | sort | tr '\n' ' ')" != \
     "$work/printed.err $work/printed.json $work/saved $work/saved.err " ]; then
  echo "a print-only run left files: $(ls -A "$work")" >&2
  exit 1
fi
if [ -n "$(ls -A "$scratch")" ]; then echo "a print-only run left $(ls -A "$scratch")" >&2; exit 1; fi
"$ergon" run -c edge_tpu -w resnet8 --batch 2 --format csv | cmp - "$work/saved/layers.csv"

# Files-only options need --out: a usage error.
status=0
"$ergon" run -c edge_tpu -w resnet8 --trace vcd > /dev/null 2> "$work/trace.err" || status=$?
[ "$status" -eq 2 ] && grep -q -- "--trace writes files: give --out DIR as well" "$work/trace.err"

# A source-tree path from another folder, the listings, and a name that is neither.
"$ergon" workload show workloads/cnnergy/alexnet.yaml --format csv | head -1 | grep -q "^index,layer,op"
"$ergon" configs --format csv | grep -q '^"edge_tpu",'
"$ergon" workloads --format json | python3 -c 'import json, sys; names = [w["name"] for w in json.load(sys.stdin)]; assert "alexnet" in names and "cnnergy/alexnet" in names, names'
status=0
"$ergon" run -c edge_tp -w resnet8 2> "$work/name.err" || status=$?
[ "$status" -eq 1 ] && grep -q "edge_tp: no such file, nor a shipped config name; did you mean edge_tpu?" "$work/name.err"

# Mistyped commands and options get the closest name.
status=0
"$ergon" rnu 2> "$work/command.err" || status=$?
[ "$status" -eq 2 ] && grep -q "ergon has no command rnu; did you mean ergon run?" "$work/command.err"
status=0
"$ergon" run --worklaod alexnet 2> "$work/option.err" || status=$?
[ "$status" -eq 2 ] && grep -q "ergon run has no option --worklaod; did you mean --workload?" "$work/option.err"
echo "print-only checks passed"
