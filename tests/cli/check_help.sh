#!/usr/bin/env bash
# Every subcommand answers --help with a usage text and exit code 0.
set -euo pipefail
ergon="$1"
for command in "" "run" "compare" "import" "import scalesim" "roofline" "estimate" "estimate cnnergy" "workload" "workload show" "config" "config show" "config keys" "config counters" "dvfs" "dvfs-study" "sweep" "sweep-merge" "estimate lahmer" "fit" "fit lahmer" "profile" "profile blackthorn" "estimate blackthorn" "estimate roofline" "import onnx" "partition" "bench-phases"; do
  # shellcheck disable=SC2086
  output=$("$ergon" $command --help)
  if ! grep -q "Usage" <<<"$output"; then
    echo "no usage text for 'ergon $command --help'" >&2
    exit 1
  fi
done
echo "help ok"
