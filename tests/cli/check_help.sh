#!/usr/bin/env bash
# Every subcommand answers --help with a usage text and exit code 0. The commands are not listed here: the walk
# starts at `ergon --help` and descends into every subcommand each help text lists, so a newly registered
# command (or estimator) is checked without editing this file.
set -euo pipefail
ergon="$1"
checked=0

# The names under "Subcommands:" in a help text.
subcommands_of() {
  sed -n '/^Subcommands:$/,/^$/p' <<<"$1" | sed -n 's/^  \([a-z0-9-]*\) .*/\1/p'
}

check() {
  local command="$1" output
  # shellcheck disable=SC2086
  if ! output=$("$ergon" $command --help); then
    echo "'ergon $command --help' failed" >&2
    exit 1
  fi
  if ! grep -q "Usage" <<<"$output"; then
    echo "no usage text for 'ergon $command --help'" >&2
    exit 1
  fi
  checked=$((checked + 1))
  local sub
  for sub in $(subcommands_of "$output"); do
    check "${command:+$command }$sub"
  done
}

check ""
# The walk found the commands: the registry holds more than a dozen (run, map, ... config) and their own.
if [ "$checked" -lt 20 ]; then
  echo "the walk from 'ergon --help' reached only $checked commands" >&2
  exit 1
fi
echo "help ok: $checked commands"
