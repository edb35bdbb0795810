#!/usr/bin/env bash
# Builds (Release) and runs the simulator benchmarks, printing wall time, simulated cycles per second,
# PE-cycles per second and peak memory. Long: not part of the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build-release -j2 --target ergon_bench ergon
build-release/tests/ergon_bench --benchmark_counters_tabular=true "$@"
echo
echo "peak memory (maximum resident set) of single runs:"
for job in "resnet50.yaml tlm" "alexnet.yaml cycle"; do
  set -- $job
  out=$(mktemp -d)
  /usr/bin/time -f "  $1 at $2 fidelity: %M KiB, %e s wall" \
    build-release/sim/ergon run --workload "workloads/$1" --fidelity "$2" --out "$out" > /dev/null
  rm -rf "$out"
done
echo
echo "64-point GLB sweep of AlexNet at tlm fidelity ($(nproc) cores, --jobs $(nproc)):"
out=$(mktemp -d)
/usr/bin/time -f "  wall %e s, peak memory of the parent %M KiB" \
  build-release/sim/ergon sweep --workload workloads/alexnet.yaml --param glb.size_kib=8:512:8 \
  --jobs "$(nproc)" --out "$out" > /dev/null 2> "$out/time.txt" || { cat "$out/time.txt"; exit 1; }
tail -1 "$out/time.txt"
echo "  $(grep -c ',"total",' "$out/results.csv") points"
rm -rf "$out"
echo
echo "scale: a synthetic layer of 1.16e12 MACs at tlm fidelity, and a 10,000-point sweep (parent process memory):"
out=$(mktemp -d)
for config in edge_tpu eyeriss; do
  /usr/bin/time -f "  1e12-MAC layer on $config: %e s wall, %M KiB peak" \
    build-release/sim/ergon run --config "configs/$config.yaml" --workload tests/bench/data/synthetic_1e12.yaml \
    --out "$out/big-$config" > /dev/null
done
for points in 100 10000; do
  /usr/bin/time -f "  $points-point sweep of DS-CNN: %e s wall, %M KiB peak" \
    build-release/sim/ergon sweep --workload workloads/ds_cnn.yaml --param "glb.size_kib=4:$((points + 3)):1" \
    --jobs "$(nproc)" --out "$out/sweep-$points" > /dev/null 2> "$out/time.txt" || { cat "$out/time.txt"; exit 1; }
  tail -1 "$out/time.txt"
done
rm -rf "$out"
