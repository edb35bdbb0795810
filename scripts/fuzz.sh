#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang (AddressSanitizer + UndefinedBehaviorSanitizer) and
# runs each for a bounded time, two at a time. Prints executions, coverage and findings per target; exits
# non-zero if any target found a crash, leak, timeout or out-of-memory input (kept in build-fuzz/findings/).
#   bash scripts/fuzz.sh [SECONDS_PER_TARGET=60] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
bash scripts/setup.sh --fuzz
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -gline-tables-only"
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ -DERGON_FUZZ=ON \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" > /dev/null
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for source in tests/fuzz/*_fuzzer.cpp; do targets+=("$(basename "$source" _fuzzer.cpp)"); done
fi
cmake --build build-fuzz -j2 --target "${targets[@]/%/_fuzzer}"

run_target() {  # target seconds -> build-fuzz/logs/target.log
  local target=$1 seconds=$2
  local corpus=build-fuzz/corpus/$target findings=build-fuzz/findings/$target
  rm -rf "$findings"  # a run reports its own findings only
  mkdir -p "$corpus" "$findings" build-fuzz/logs
  # New inputs go to the working corpus; the committed seeds are read only.
  build-fuzz/tests/fuzz/${target}_fuzzer "$corpus" "tests/fuzz/corpus/$target" -max_total_time="$seconds" \
    -timeout=10 -rss_limit_mb=2048 -max_len=16384 -print_final_stats=1 -artifact_prefix="$findings/" \
    > "build-fuzz/logs/$target.log" 2>&1 || true
}
export -f run_target
printf '%s\n' "${targets[@]}" | xargs -P 2 -I{} bash -c "run_target {} $seconds"

printf '\n%-20s %12s %10s %8s %8s %9s\n' target executions "execs/s" coverage corpus findings
status=0
for target in "${targets[@]}"; do
  log=build-fuzz/logs/$target.log
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  coverage=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  corpus=$(find "build-fuzz/corpus/$target" -type f | wc -l)
  findings=$(find "build-fuzz/findings/$target" -type f | wc -l)
  printf '%-20s %12s %10s %8s %8s %9s\n' "$target" "${executions:-?}" "${rate:-?}" "${coverage:-?}" "$corpus" "$findings"
  if [ "$findings" -gt 0 ] || [ -z "$executions" ]; then status=1; fi
done
if [ $status -ne 0 ]; then echo "fuzz: findings or failed runs; see build-fuzz/logs and build-fuzz/findings"; fi
exit $status
