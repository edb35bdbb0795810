#!/usr/bin/env bash
# Fetches SCALE-Sim v2 and v3 at the commits tests/data/scalesim/inputs.tsv names (git, from GitHub), for
# `python3 scripts/check_scalesim_inputs.py`. Not part of the test suite: it needs GitHub.
#   bash scripts/fetch_scalesim_inputs.sh [DIR]      (default: build/scalesim-inputs)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-build/scalesim-inputs}"
mkdir -p "$out"
cut -f1,2 tests/data/scalesim/inputs.tsv | tail -n +2 | sort -u | while read -r repo commit; do
  dir="$out/$(basename "$repo")"
  if [ ! -d "$dir/.git" ]; then git clone --quiet --no-checkout "https://github.com/$repo.git" "$dir"; fi
  git -C "$dir" checkout --quiet "$commit"
  echo "ok  $repo at $commit in $dir"
done
